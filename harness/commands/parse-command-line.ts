import { parseArgs, type ParseArgsConfig } from "node:util";
import { suggestOption } from "../text/option-suggestion.js";
import { orList, type Command, type Options, type Parsed, type ValuesOf } from "./declaration.js";
import { usageOf } from "./help.js";
import { UsageError } from "./options.js";

// A command line read by one command's declaration: node's parseArgs splits it, each option's
// schema reads its value once, and an option the command does not declare is refused saying
// whose it is and which the command has.

const HELP = { type: "boolean", short: "h" } as const;

/** Each option's value read by its schema: a message that names the option when one does not read. */
function valuesOf<O extends Options>(options: O, raw: Record<string, unknown>): ValuesOf<O> {
  return Object.fromEntries(
    Object.entries(options).map(([name, option]) => {
      const read = option.schema.safeParse(raw[name]);
      if (!read.success) throw new UsageError(`--${name} ${read.error.issues[0]?.message ?? "does not read"}`);
      return [name, read.data];
    }),
  ) as ValuesOf<O>;
}

/** parseArgs' configuration for a set of declared options. */
const configOf = (options: Options): NonNullable<ParseArgsConfig["options"]> =>
  Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      { type: o.value === undefined ? "boolean" : "string", ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
    ]),
  );

/** Options alone, no words, read by their declarations: a command line a report recorded (a rerun's broker). */
export function readOptions<O extends Options>(options: O, args: readonly string[]): ValuesOf<O> {
  return valuesOf(options, parseArgs({ args: [...args], options: configOf(options), strict: true, allowPositionals: false }).values);
}

/** Who else declares an option: the commands' names ("a conformance run" for the run). */
export type OptionOwners = (option: string) => readonly string[];

/** The name a message gives a command. */
export const commandLabel = (c: Command) => c.name ?? "a conformance run";

/** Why an option a command does not declare is refused: whose it is, or the one meant, and the command's own. */
function refusal(given: string, c: Command, owners: OptionOwners): string {
  const name = given.replace(/^-+/, "");
  // The run's options are many: --help lists them, as the pointer after the message says.
  const own = c.name === undefined ? "" : `; its options are ${[...Object.keys(c.options).map((o) => `--${o}`), "--help"].join(", ")}`;
  const whose = owners(name);
  if (whose.length > 0) return `${given} is not an option of ${commandLabel(c)} (it goes with ${orList(whose)})${own}`;
  const meant = suggestOption(given, Object.keys(c.options));
  return `unknown option ${given}${meant ? `; did you mean ${meant}?` : ""}${own}`;
}

/** The command line after the command's word (the whole of it for a run), read by the command's declaration; `help` when --help asks for its help. */
export function parseCommandLine<O extends Options>(c: Command<O>, args: readonly string[], owners: OptionOwners): Parsed<O> | "help" {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...configOf(c.options), help: HELP }, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown) throw new UsageError(refusal(unknown, c, owners));
    const valueless = /^Option '--([^ ']+) <value>' argument missing/.exec(message)?.[1];
    throw new UsageError(valueless ? `--${valueless} needs a value: --${valueless} ${c.options[valueless]?.value ?? "VALUE"}` : message);
  }
  if (parsed.values.help) return "help";
  const terminator = parsed.tokens.find((t) => t.kind === "option-terminator")?.index;
  const words = parsed.tokens.flatMap((t) =>
    t.kind === "positional" ? [{ value: t.value, passed: c.passThrough === true && terminator !== undefined && t.index > terminator }] : [],
  );
  return {
    values: valuesOf(c.options, parsed.values),
    operands: words.filter((w) => !w.passed).map((w) => w.value),
    passed: c.passThrough && terminator !== undefined ? words.filter((w) => w.passed).map((w) => w.value) : undefined,
    given: new Set(parsed.tokens.flatMap((t) => (t.kind === "option" ? [t.name] : []))),
  };
}

/** A command's operands, refused when there are too many or too few. */
export function checkOperands(c: Command, words: readonly string[]): void {
  const { count, what } = c.operands;
  if (count === "any" || words.length === count) return;
  if (count === 0) throw new UsageError(`${commandLabel(c)} takes no word after it, not ${words.join(" ")}`);
  throw new UsageError(`${commandLabel(c)} takes ${what ?? `${count} words`}: ${usageOf(c)}`);
}
