import { HarnessError } from "../harness-error.js";
import type { Command, Parsed } from "./declaration.js";
import { commandHelp, mainHelp } from "./help.js";
import { writeNotRun } from "./not-run.js";
import { reportsDirOf, UsageError } from "./options.js";
import { checkOperands, parseCommandLine } from "./parse-command-line.js";
import { isFeaturePlace, RUN } from "./run.js";
import { COMMAND_NAMES, COMMANDS, commandNamed, optionOwners } from "./table.js";
import { suggestWord } from "../text/option-suggestion.js";

// The thin command line over the kit's commands (harness/commands/): the first word names the
// command (a conformance run when it names none), whose declaration reads the rest; what the
// command answers is the exit code.

/** Reports for a command line that never started a run: a CI step that shows the reports then shows why. */
const notStarted = (argv: readonly string[], cause: string) =>
  writeNotRun(reportsDirOf(argv), cause, {
    broker: "not started",
    seed: 1,
    level: "must",
    tags: undefined,
    startedAt: new Date().toISOString(),
    requireAll: false,
  });

/** A run's words are scenarios (features/FILE.feature:LINE); any other is a command misspelt, or one not put first. */
function checkRunWords(words: readonly string[]): void {
  const word = words.find((w) => !isFeaturePlace(w));
  if (word === undefined) return;
  if (commandNamed(word)) throw new UsageError(`${word} is a command: it goes first, as in lomi-conformance ${word} …`);
  const meant = suggestWord(word, COMMAND_NAMES);
  throw new UsageError(
    `unknown command ${word}${meant ? `; did you mean ${meant}?` : ""} (the commands are ${COMMAND_NAMES.join(", ")}; a conformance run takes none, or scenarios as features/FILE.feature:LINE)`,
  );
}

/** The help --help asks for: the command's own, or for a run (the main help) the command it names, as in `--help merge`. */
function helpOf(c: Command, args: readonly string[]): string {
  const named = c === RUN ? args.map(commandNamed).find(Boolean) : undefined;
  const shown = named ?? c;
  return shown === RUN ? mainHelp(RUN, COMMANDS) : commandHelp(shown);
}

/**
 * The command ARGV names (a conformance run when its first word names none) and the rest read by
 * that command's declaration, "help" when --help asks for help: a UsageError when refused.
 */
export function readCommandLine(argv: readonly string[]): { command: Command; args: readonly string[]; parsed: Parsed | "help" } {
  const named = commandNamed(argv[0]);
  const command: Command = named ?? RUN;
  const args = named ? argv.slice(1) : argv;
  const parsed = parseCommandLine(command, args, optionOwners);
  if (parsed !== "help" && command === RUN) checkRunWords(parsed.operands);
  if (parsed !== "help" && command !== RUN) checkOperands(command, parsed.operands);
  return { command, args, parsed };
}

async function main(argv: readonly string[]): Promise<number> {
  let read;
  try {
    read = readCommandLine(argv);
  } catch (error) {
    // A run refused for its command line still leaves reports saying why (a misspelt option, a command misspelt where a run was meant).
    if (!commandNamed(argv[0]) && !argv.some((a) => a === "--help" || a === "-h"))
      await notStarted(argv, error instanceof Error ? error.message : String(error));
    throw error;
  }
  const { command, args, parsed } = read;
  if (parsed === "help") {
    process.stdout.write(`${helpOf(command, args)}\n`);
    return 0;
  }
  return command.run(parsed);
}

/**
 * lomi-conformance ARGV: its exit code, and its error said on stderr as the command says it. The bin
 * runs it once (harness/cli.ts), a judging process once a run (harness/suite/judge-process.ts).
 */
export function runCommandLine(argv: readonly string[]): Promise<number> {
  // Every message of a command carries its name ("lomi-conformance compare: …"), a run's the kit's alone.
  const named = commandNamed(argv[0]);
  const prefix = named ? `lomi-conformance ${named.name}` : "lomi-conformance";
  return main(argv).catch((error: unknown) => {
    const usage = error instanceof UsageError;
    const config = error instanceof HarnessError && error.kind === "config";
    process.stderr.write(`${prefix}: ${config ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
    if (usage) process.stderr.write(`Run ${prefix} --help for usage.\n`);
    return 2;
  });
}
