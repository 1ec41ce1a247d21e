import type { Command, Option } from "./declaration.js";

// What --help prints, made from the commands' declarations (harness/commands/declaration.ts): a
// command's own help, and the main help (the run's, with the commands listed a line each).

const WIDTH = 104;
/** Where an option's help starts, after "  --update-baseline FILE ". */
const COLUMN = 25;
/** Where a command's summary starts in the main help, after "  lomi-conformance check HISTORY.jsonl". */
const SUMMARY_COLUMN = 40;

/** Words filled into lines of at most WIDTH after a first line's lead, the others indented by `indent`. */
function wrapped(text: string, lead: string, indent: number): string {
  const lines: string[] = [];
  let line = lead;
  let bare = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!bare && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = " ".repeat(indent);
      bare = true;
    }
    line += bare ? word : ` ${word}`;
    bare = false;
  }
  return [...lines, line].join("\n");
}

/** "  --seed N" padded to the column where its help starts (a longer one gets a line of its own). */
function optionEntry(name: string, o: Pick<Option, "short" | "value" | "help" | "shownDefault">): string {
  const head = `  ${o.short ? `-${o.short}, ` : ""}--${name}${o.value ? ` ${o.value}` : ""}`;
  const help = o.shownDefault === undefined ? o.help : `${o.help} (default ${o.shownDefault})`;
  return head.length < COLUMN ? wrapped(help, head.padEnd(COLUMN), COLUMN) : `${head}\n${wrapped(help, " ".repeat(COLUMN), COLUMN)}`;
}

/** The options under their headings, in the order declared; --help closes the command's own. */
function optionSections(c: Command): string {
  const sections = new Map<string, string[]>();
  const add = (section: string, entry: string) => sections.set(section, [...(sections.get(section) ?? []), entry]);
  for (const [name, o] of Object.entries(c.options)) add(o.section ?? "Options", optionEntry(name, o));
  add("Options", optionEntry("help", { short: "h", help: "this text" }));
  return [...sections].map(([heading, entries]) => `${heading}:\n${entries.join("\n")}`).join("\n\n");
}

/** The command's form: `lomi-conformance merge DIR… [options]`. */
export function usageOf(c: Command, withOptions = true): string {
  return ["lomi-conformance", c.name, c.operands.shown, withOptions && Object.keys(c.options).length > 0 ? "[options]" : undefined].filter(Boolean).join(" ");
}

function usageSection(c: Command): string {
  const forms = c.forms ?? [{ usage: usageOf(c), says: "" }];
  return `Usage:\n${forms.map((f) => `  ${f.usage}${f.says ? `\n${wrapped(f.says, "        ", 8)}` : ""}`).join("\n")}`;
}

const examplesSection = (c: Command) =>
  c.examples.length === 0 ? undefined : `Examples:\n${c.examples.map((e) => `  ${e.line}\n${wrapped(e.says, "      ", 6)}`).join("\n")}`;

/** What `lomi-conformance NAME --help` prints. */
export function commandHelp(c: Command): string {
  return [
    `${["lomi-conformance", c.name].filter(Boolean).join(" ")} — ${c.summary}`,
    usageSection(c),
    c.description,
    optionSections(c),
    examplesSection(c),
    c.notes,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** What `lomi-conformance --help` prints: the run's usage, each command in a line, the run's options. */
export function mainHelp(run: Command, commands: readonly Command[]): string {
  const listed = commands.map((c) => {
    const head = `  ${usageOf(c, false)}`;
    return head.length < SUMMARY_COLUMN ? `${head.padEnd(SUMMARY_COLUMN)}${c.summary}` : `${head}\n${" ".repeat(SUMMARY_COLUMN)}${c.summary}`;
  });
  const commandsSection = `Commands (lomi-conformance COMMAND --help prints a command's own options and examples):\n${listed.join("\n")}`;
  return [`lomi-conformance — ${run.summary}`, usageSection(run), run.description, commandsSection, optionSections(run), examplesSection(run), run.notes]
    .filter(Boolean)
    .join("\n\n");
}
