import { HarnessError } from "../harness-error.js";
import { HELP, MERGE_HELP } from "./help.js";
import { writeNotRun } from "./not-run.js";
import { parse, reportsDirOf, UsageError, type ParsedCommandLine } from "./options.js";
import { conformance } from "./run.js";
import { COMMAND_NAMES, COMMANDS, isCommandName, isSharedOptionsCommand, operandsOf, ownCommandLineOf, refuseOthersOptions } from "./table.js";
import { isFeaturePlace } from "../run/scenario-choice.js";
import { suggestWord } from "../text/option-suggestion.js";

// The thin command line over the kit's commands (harness/commands/): it parses, hands the command
// line to the command its first word names (a conformance run when none does), and turns what
// comes back into an exit code.

/** Reports for a command line that never started a run: a CI step that shows the reports then shows why. */
const notStarted = (argv: readonly string[], cause: string) =>
  writeNotRun(reportsDirOf(argv), cause, { broker: "not started", seed: 1, level: "must", tags: undefined, startedAt: new Date().toISOString(), requireAll: false });

async function main(argv: readonly string[]): Promise<number> {
  const own = ownCommandLineOf(argv[0]);
  if (own) return own.ownCommandLine(argv.slice(1));
  let parsed: ParsedCommandLine;
  try {
    parsed = parse();
  } catch (error) {
    // A misspelt option of a conformance run still leaves reports naming it.
    if (!argv.some((a) => isCommandName(a) || a === "--help" || a === "-h")) await notStarted(argv, error instanceof Error ? error.message : String(error));
    throw error;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${positionals[0] === "merge" ? MERGE_HELP : HELP}\n`);
    return 0;
  }
  // A conformance run of some scenarios: features/FILE.feature:LINE words, as cucumber takes them.
  if (positionals.length > 0 && positionals.every(isFeaturePlace)) {
    refuseOthersOptions(undefined, values);
    return conformance(parsed, positionals);
  }
  const [word, ...operands] = positionals;
  if (word === undefined) {
    refuseOthersOptions(undefined, values);
    return conformance(parsed);
  }
  if (!isSharedOptionsCommand(word)) {
    const meant = suggestWord(word, COMMAND_NAMES);
    const message = `unknown command ${word}${meant ? `; did you mean ${meant}?` : ""} (the commands are ${COMMAND_NAMES.join(", ")}; a conformance run takes none, or scenarios as features/FILE.feature:LINE)`;
    // Perhaps a run was meant, as with a misspelt option: reports say why none ran, so a CI gate shows it.
    await notStarted(argv, message);
    throw new UsageError(message);
  }
  refuseOthersOptions(word, values);
  return COMMANDS[word].run(parsed, operandsOf(word, operands));
}

/**
 * lomi-conformance ARGV (process.argv holds it too: the options are parsed from there): its exit code,
 * and its error said on stderr as the command says it. The bin runs it once (harness/cli.ts), a
 * judging process once a run (harness/commands/judge-process.ts).
 */
export function runCommandLine(argv: readonly string[]): Promise<number> {
  // Every message of a command carries its name ("lomi-conformance compare: …"), a run's the kit's alone.
  const prefix = argv[0] !== undefined && isCommandName(argv[0]) ? `lomi-conformance ${argv[0]}` : "lomi-conformance";
  return main(argv).catch((error: unknown) => {
    const usage = error instanceof UsageError;
    const config = error instanceof HarnessError && error.kind === "config";
    process.stderr.write(`${prefix}: ${usage || config ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
    if (usage) process.stderr.write("Run lomi-conformance --help for usage.\n");
    return 2;
  });
}
