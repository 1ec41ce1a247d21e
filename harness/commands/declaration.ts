import { z } from "zod";

// How a command of lomi-conformance declares itself: its options, each read once by zod where the
// command line is parsed, its operands, and the words its --help is made of (harness/commands/help.ts).

/** One option: the word help shows for its value (none: a flag), how zod reads what was given, and its help. */
export interface Option<T = unknown> {
  /** "N", "FILE", "on|off"; a flag takes no value. */
  readonly value?: string;
  /** Given more than once, every value kept (--header). */
  readonly multiple?: boolean;
  readonly short?: string;
  /**
   * Reads what the command line gave (a text, texts with `multiple`, true for a flag, undefined when
   * absent) as the command takes it. An issue's message follows the option's name: "--seed " + "takes …".
   */
  readonly schema: z.ZodType<T>;
  readonly help: string;
  /** The default help shows, when there is one. */
  readonly shownDefault?: string;
  /** The heading help lists it under: its group's, or "Options". */
  readonly section?: string;
}

export type Options = Readonly<Record<string, Option>>;
export type ValuesOf<O extends Options> = { -readonly [K in keyof O]: O[K] extends Option<infer T> ? T : never };

/** A command line read by a command's declaration. */
export interface Parsed<O extends Options = Options> {
  values: ValuesOf<O>;
  /** The words that are not options (before `--`, for a command that passes what follows it on). */
  operands: readonly string[];
  /** What followed `--`, for a command with `passThrough`; undefined when there was no `--`. */
  passed: readonly string[] | undefined;
  /** The options the command line named (a rerun fills in the others from the run it reruns). */
  given: ReadonlySet<string>;
}

export interface Operands {
  /** How many words follow the command's own: exactly this many, or any number. */
  count: number | "any";
  /** As usage shows them: "BASE HEAD", "DIR…". */
  shown?: string;
  /** For the message that refuses too many or too few: "two reports folders". */
  what?: string;
}

export interface Example {
  line: string;
  says: string;
}

/** A command: lomi-conformance NAME, or (name undefined) the conformance run itself. */
export interface Command<O extends Options = Options> {
  readonly name: string | undefined;
  /** One line: the main help's list of commands, and the head of the command's own. */
  readonly summary: string;
  readonly operands: Operands;
  /** Usage forms, when the one made from the operands does not say enough (record's two). */
  readonly forms?: ReadonlyArray<{ usage: string; says: string }>;
  /** Paragraphs after the usage, as written (wrapped by hand). */
  readonly description?: string;
  readonly options: O;
  /** What follows `--` is not the kit's to read (record: the broker's command line). */
  readonly passThrough?: boolean;
  readonly examples: readonly Example[];
  /** The end of its help: exit codes, and what else a user must know. */
  readonly notes?: string;
  /** Loads what it needs only when run, so --help and a usage error answer at once. */
  run(parsed: Parsed<O>): Promise<number>;
}

/** A command declared with its options' types kept for its run. */
export const command = <O extends Options>(c: Command<O>): Command<O> => c;

/** Options that go together in one command or several, listed under their own heading in help. */
export const group = <O extends Options>(section: string, options: O): O =>
  Object.fromEntries(Object.entries(options).map(([name, o]) => [name, { ...o, section }])) as O;

/** "a, b or c". */
export const orList = (words: readonly string[]) => (words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`);

interface Described {
  help: string;
  section?: string;
}

/** An option without a value: true when given. */
export const flag = (o: Described): Option<boolean> => ({ ...o, schema: z.boolean().default(false) });

/** A value taken as it is written (a file, a folder, a tag expression); undefined when not given, unless it has a default. */
export function text(o: Described & { value: string }): Option<string | undefined>;
export function text(o: Described & { value: string; default: string; shownDefault?: string }): Option<string>;
export function text(o: Described & { value: string; default?: string; shownDefault?: string }): Option<string | undefined> {
  const { default: fallback, ...rest } = o;
  return fallback === undefined ? { ...rest, schema: z.string().optional() } : { shownDefault: fallback, ...rest, schema: z.string().default(fallback) };
}

/** A value given as often as needed, each kept in order. */
export const texts = (o: Described & { value: string }): Option<string[]> => ({ ...o, multiple: true, schema: z.array(z.string()).default([]) });

interface Bounds {
  min?: number;
  max?: number;
  /** What the number is, for the message that refuses another: "a whole number" unless said. */
  what?: string;
}

/** A whole number within bounds; undefined when not given, unless it has a default. */
export function integer(o: Described & Bounds & { value: string }): Option<number | undefined>;
export function integer(o: Described & Bounds & { value: string; default: number }): Option<number>;
export function integer(o: Described & Bounds & { value: string; default?: number }): Option<number | undefined> {
  const { min = 0, max = Number.MAX_SAFE_INTEGER, what = "a whole number", default: fallback, ...rest } = o;
  const expected = `takes ${what} ${max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`}`;
  const error = (issue: { input?: unknown }) => `${expected}, not ${String(issue.input)}`;
  const number = z.string().regex(/^\d+$/, { error }).transform(Number).pipe(z.number().min(min, { error }).max(max, { error }));
  return fallback === undefined ? { ...rest, schema: number.optional() } : { shownDefault: String(fallback), ...rest, schema: number.default(fallback) };
}

/** One of a few words; help shows them as its value ("on|off"). */
export function choice<const C extends string>(o: Described & { choices: readonly [C, ...C[]] }): Option<C | undefined>;
export function choice<const C extends string>(o: Described & { choices: readonly [C, ...C[]]; default: C }): Option<C>;
export function choice<const C extends string>(o: Described & { choices: readonly [C, ...C[]]; default?: C }): Option<C | undefined> {
  const { choices, default: fallback, ...rest } = o;
  const word = z.enum(choices, { error: (issue) => `must be ${orList(choices)}, not ${String(issue.input)}` });
  const value = choices.join("|");
  return fallback === undefined ? { ...rest, value, schema: word.optional() } : { ...rest, value, shownDefault: fallback, schema: word.default(fallback) };
}

/** A value read by a schema of its own (a URL, a K/N shard); undefined when not given. */
export const read = <T>(o: Described & { value: string; schema: z.ZodType<T, string> }): Option<T | undefined> => ({ ...o, schema: o.schema.optional() });

/** A URL of the scheme given, e.g. /^https?$/; what the message calls it and an example say what is wanted. */
export const urlText = (o: { protocol?: RegExp; what: string; example: string }) =>
  z
    .url({ ...(o.protocol ? { protocol: o.protocol } : {}), error: (issue) => `takes ${o.what}, such as ${o.example}, not ${String(issue.input)}` })
    .transform((href) => new URL(href));
