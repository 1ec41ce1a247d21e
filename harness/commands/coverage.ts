import path from "node:path";
import { command, flag } from "./declaration.js";
import { print, reportsOption } from "./options.js";

/** `lomi-conformance coverage`: the source document sentence by sentence, with what judges each. */
export const COVERAGE = command({
  name: "coverage",
  summary: "each source sentence → its rules → scenarios → a run's verdicts",
  operands: { count: 0 },
  description:
    "Every sentence of the source document, with the rules that judge it, their scenarios and the\nverdicts of the run in --reports, or why it binds no broker.",
  options: {
    reports: reportsOption("DIR", "the run whose verdicts are shown"),
    json: flag({ help: "the same as JSON" }),
  },
  examples: [{ line: "lomi-conformance coverage --reports reports", says: "after a run: which sentences its verdicts judged" }],
  notes: "Exit codes: 0 every sentence mapped, 2 a sentence neither judged by a rule nor said to bind no broker.",
  async run({ values }) {
    const { coverageText, readReportedRun, sourceCoverage } = await import("../authoring/source-coverage.js");
    const coverage = sourceCoverage(readReportedRun(path.resolve(values.reports)));
    await print(values.json ? `${JSON.stringify(coverage, null, 2)}\n` : coverageText(coverage));
    return coverage.rows.some((r) => r.how === "unmapped") ? 2 : 0;
  },
});
