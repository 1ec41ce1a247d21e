/** A word of a --broker-cmd line, and whether it was quoted (a quoted word is taken as it stands). */
interface CommandWord {
  text: string;
  quoted: boolean;
}

function commandWords(command: string): CommandWord[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => ({ text: m[1] ?? m[2] ?? m[3]!, quoted: m[3] === undefined }));
}

/** Splits a command line on spaces, keeping "quoted words" together. */
export function splitCommand(command: string): string[] {
  return commandWords(command).map((w) => w.text);
}

/** What a shell would make of an unquoted word, here passed to the program as it stands. */
const SHELL_SYNTAX: Array<{ test: (word: string, first: boolean) => boolean; what: string }> = [
  { test: (w, first) => first && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w), what: "a variable assignment" },
  { test: (w) => /[<>]/.test(w), what: "a redirection" },
  { test: (w) => w.includes("|"), what: "a pipe" },
  { test: (w) => w.includes("&&") || w.endsWith("&") || w.includes(";"), what: "a command list" },
  { test: (w) => /\$[A-Za-z_{(]|`/.test(w), what: "an expansion" },
  { test: (w) => w.startsWith("~"), what: "a home directory (~)" },
];

/**
 * Why a --broker-cmd line that uses shell syntax is refused (what follows the option's name), or undefined if it uses none.
 * The kit runs the command without a shell (so it can kill exactly the broker's process group), and
 * `node broker.mjs > log.txt` would hand ">" and "log.txt" to node: a whole run without the log
 * the user asked for. The message gives the `sh -c` form that does what they meant.
 */
export function shellSyntaxIn(command: string): string | undefined {
  const words = commandWords(command);
  // Assignments lead a line: every unquoted NAME=value word before the program is one.
  let leading = true;
  for (const word of words) {
    const found = word.quoted ? undefined : SHELL_SYNTAX.find((s) => s.test(word.text, leading));
    leading &&= !word.quoted && SHELL_SYNTAX[0]!.test(word.text, true);
    if (!found) continue;
    const inShell = command.includes("'") ? `sh -c "${command}"` : `sh -c '${command}'`;
    return (
      `runs its command without a shell, so "${word.text}" (${found.what} in a shell) would reach the program as an argument. ` +
      `To have a shell read the line, give it to one: --broker-cmd "${inShell}" (the kit still stops the shell and all it starts)` +
      (found === SHELL_SYNTAX[0] ? `; or set the variables with env: --broker-cmd "env ${command}"` : "")
    );
  }
  return undefined;
}
