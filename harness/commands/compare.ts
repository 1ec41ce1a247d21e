import path from "node:path";
import { command, text } from "./declaration.js";
import { shown } from "./options.js";

/** `lomi-conformance compare BASE HEAD`: what changed between two runs. */
export const COMPARE = command({
  name: "compare",
  summary: "what changed between two runs; exit 1 if anything newly fails",
  operands: { count: 2, shown: "BASE HEAD", what: "two reports folders" },
  description:
    "BASE and HEAD are two runs' reports folders (a base branch's and a pull request's; a run's or a\n" +
    "merge of its shards): per rule and per scenario newly failing, fixed, still failing, newly not\n" +
    "judged, flaky; on the console and into compare.md (a pull-request comment) and compare.json.",
  options: {
    reports: text({ value: "OUT", help: "where compare.md and compare.json go (default HEAD)" }),
  },
  examples: [{ line: "lomi-conformance compare base-reports reports", says: "what changed since a base run" }],
  notes: "Exit codes: 0 nothing newly fails, 1 something newly fails, 2 a folder that is not a run's reports.",
  async run({ values, operands: [base, head] }) {
    const { compareCommand } = await import("../compare/command.js");
    return compareCommand({ base: shown(base!), head: shown(head!), out: path.resolve(values.reports ?? head!), write: (t) => process.stdout.write(t) });
  },
});
