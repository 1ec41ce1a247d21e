import path from "node:path";
import { explore } from "./explore.js";
import { merge } from "./merge.js";
import { integer, print, shown, UsageError, type ParsedCommandLine } from "./options.js";
import { checkTags } from "./run.js";

/** Options of one or two commands, and what a command line that gives them elsewhere is told. */
const OWNED_OPTION_NAMES = ["report", "scenario", "judge", "json"] as const;
type OwnedOption = (typeof OWNED_OPTION_NAMES)[number];
const CHECK_ONLY = "--report and --scenario go with check: lomi-conformance check HISTORY.jsonl --report FILE.md --scenario";
const OWNED_OPTIONS: Record<OwnedOption, string> = { report: CHECK_ONLY, scenario: CHECK_ONLY, judge: "--judge goes with check: lomi-conformance check HISTORY.jsonl --judge broker|agents|both", json: "--json goes with the catalogue and coverage commands" };

/** A command that reads its own command line, as given after its word (record: the broker's command follows `--`). */
interface OwnCommandLine {
  ownCommandLine: (args: readonly string[]) => Promise<number>;
}

/**
 * A command other than a conformance run: its word, how many words follow it, and what it does with
 * the parsed command line (its exit code). Each loads what it needs only when run, so --help and a
 * usage error answer at once.
 */
interface Command {
  /** The words after the command's own: exactly this many, or any number (merge's folders). */
  operands: number | "any";
  usage: string;
  /** What the operands are, for the message that refuses too many or too few. */
  operandText?: string;
  /** The options that go with this command alone (and its fellows'), refused elsewhere: see OWNED_OPTIONS. */
  owns?: readonly OwnedOption[];
  run: (parsed: ParsedCommandLine, operands: readonly string[]) => Promise<number>;
}

/** Each entry typed as a Command, its name kept as a literal key. */
const command = (c: Command): Command => c;

export const COMMANDS = {
  steps: command({
    operands: 0,
    usage: "lomi-conformance steps",
    run: async () => {
      const { formatVocabulary, stepVocabulary } = await import("../authoring/step-vocabulary.js");
      await print(formatVocabulary(await stepVocabulary(), (await import("../oracles/index.js")).ORACLES));
      return 0;
    },
  }),
  explore: command({ operands: 0, usage: "lomi-conformance explore [--seed N] [--runs K] …", run: ({ values }) => explore(values) }),
  check: command({
    operands: 1,
    usage: "lomi-conformance check HISTORY.jsonl [--report FILE.md|FILE.html] [--scenario] [--judge broker|agents|both]",
    operandText: "one history file",
    owns: ["report", "scenario", "judge"],
    run: async ({ values }, [file]) => {
      const { checkCommand, judgeSides } = await import("../check/check.js");
      return checkCommand(file!, (t) => process.stdout.write(t), { report: values.report, scenario: values.scenario, judge: judgeSides(values.judge) });
    },
  }),
  record: { ownCommandLine: async (args) => (await import("../record/command.js")).recordCommand([...args]) } satisfies OwnCommandLine,
  catalogue: command({
    operands: 0,
    usage: "lomi-conformance catalogue [--json]",
    owns: ["json"],
    run: async ({ values }) => {
      const { catalogueJsonText, catalogueMarkdown, readExamples } = await import("../authoring/catalogue-doc.js");
      await print(values.json ? catalogueJsonText() : catalogueMarkdown(readExamples()));
      return 0;
    },
  }),
  coverage: command({
    operands: 0,
    usage: "lomi-conformance coverage [--reports DIR] [--json]",
    owns: ["json"],
    run: async ({ values }) => {
      const { coverageText, readReportedRun, sourceCoverage } = await import("../authoring/source-coverage.js");
      const coverage = sourceCoverage(readReportedRun(path.resolve(values.reports)));
      await print(values.json ? `${JSON.stringify(coverage, null, 2)}\n` : coverageText(coverage));
      return coverage.rows.some((r) => r.how === "unmapped") ? 2 : 0;
    },
  }),
  teeth: command({
    operands: 0,
    usage: "lomi-conformance teeth [--tags EXPR] [--mutant A,B] [--jobs N]",
    run: async ({ values }) => {
      const { teeth, teethText } = await import("../authoring/teeth.js");
      await checkTags(values.tags);
      const { matrix, exitCode } = await teeth({
        tags: values.tags,
        jobs: integer("--jobs", values.jobs, 1, 16),
        reports: path.resolve(values.reports, "teeth"),
        mutants: values.mutant?.split(",").map((m) => m.trim()),
        seed: integer("--seed", values.seed),
        write: (t) => process.stdout.write(t),
      });
      await print(teethText(matrix));
      return exitCode;
    },
  }),
  lint: command({
    operands: 0,
    usage: "lomi-conformance lint",
    run: async () => {
      const { lintSuite, lintText } = await import("../authoring/lint.js");
      const problems = await lintSuite();
      await print(problems.length === 0 ? "lomi-conformance lint: no problems\n" : `${lintText(problems)}\nlomi-conformance lint: ${problems.length} problem(s)\n`);
      return problems.length === 0 ? 0 : 2;
    },
  }),
  merge: command({ operands: "any", usage: "lomi-conformance merge DIR… [--reports OUT]", run: ({ values }, dirs) => merge([...dirs], values) }),
  verify: command({
    operands: 1,
    usage: "lomi-conformance verify DIR",
    operandText: "one reports folder",
    run: async (_parsed, [dir]) => (await import("../verify/command.js")).verifyCommand(path.resolve(dir!), shown(dir!), (t) => process.stdout.write(t)),
  }),
  compare: command({
    operands: 2,
    usage: "lomi-conformance compare BASE HEAD [--reports OUT]",
    operandText: "two reports folders",
    run: async ({ values, tokens }, [base, head]) => {
      const { compareCommand } = await import("../compare/command.js");
      const out = tokens.some((t) => t.kind === "option" && t.name === "reports") ? values.reports : head!;
      return compareCommand({ base: shown(base!), head: shown(head!), out: path.resolve(out), write: (t) => process.stdout.write(t) });
    },
  }),
};

export type CommandName = keyof typeof COMMANDS;
/** The commands that take the kit's shared options. */
export type SharedOptionsCommand = { [N in CommandName]: (typeof COMMANDS)[N] extends Command ? N : never }[CommandName];
/** The command whose word this is, when it reads its own command line. */
export const ownCommandLineOf = (word: string | undefined): OwnCommandLine | undefined => {
  const found = word !== undefined && isCommandName(word) ? COMMANDS[word] : undefined;
  return found && "ownCommandLine" in found ? found : undefined;
};
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);
export const isCommandName = (word: string): word is CommandName => Object.hasOwn(COMMANDS, word);
export const isSharedOptionsCommand = (word: string): word is SharedOptionsCommand => isCommandName(word) && !("ownCommandLine" in COMMANDS[word]);

/** An option that belongs to other commands than this one (undefined: a conformance run) is refused, saying where it goes. */
export function refuseOthersOptions(name: SharedOptionsCommand | undefined, values: ParsedCommandLine["values"]): void {
  const owned: readonly OwnedOption[] = name === undefined ? [] : (COMMANDS[name].owns ?? []);
  const misplaced = OWNED_OPTION_NAMES.find((o) => values[o] !== undefined && values[o] !== false && !owned.includes(o));
  if (misplaced) throw new UsageError(OWNED_OPTIONS[misplaced]);
}

/** A command's operands, refused when there are too many or too few. */
export function operandsOf(name: SharedOptionsCommand, words: readonly string[]): readonly string[] {
  const { operands, usage, operandText } = COMMANDS[name];
  if (operands === "any" || words.length === operands) return words;
  if (operands === 0) throw new UsageError(`${name} takes no word after it, not ${words.join(" ")}`);
  throw new UsageError(`${name} takes ${operandText ?? `${operands} words`}: ${usage}`);
}
