import path from "node:path";
import { z } from "zod";
import { command, integer, read, text } from "./declaration.js";
import { print, reportsOption } from "./options.js";
import { checkTags } from "./run.js";

/** `lomi-conformance teeth`: which mutant breaks which rule, and the MUST rules none breaks. */
export const TEETH = command({
  name: "teeth",
  summary: "each mutant against the scenarios: which rules it breaks",
  operands: { count: 0 },
  description:
    "Every mutant (mutants/) against the selected scenarios, in-process, after the reference broker: which\n" +
    "mutant breaks which rule, with the scenarios that fail it in its mutants' runs; the thin rules (one\n" +
    "scenario alone kills their mutants); and the MUST rules none breaks without a reason in docs/teeth.json.",
  options: {
    tags: text({ value: "EXPR", help: "the scenarios, as a run's --tags selects them (default: all)" }),
    mutant: read({
      value: "A,B",
      schema: z.string().transform((names) => names.split(",").map((m) => m.trim())),
      help: "only these mutants (default: every one)",
    }),
    jobs: integer({ value: "N", min: 1, max: 16, default: 2, help: "runs side by side, each on a long-lived process that judges its runs in-process" }),
    reports: reportsOption("DIR", "teeth.json and teeth.md go into DIR/teeth"),
    seed: integer({ value: "N", default: 1, help: "the runs' seed" }),
  },
  examples: [
    { line: "lomi-conformance teeth --tags @CANCEL-03", says: "which mutant fails which rule of those scenarios" },
    { line: "lomi-conformance teeth --tags @CANCEL-03 --mutant cancel-settled-reported-cancelled", says: "one mutant: does the scenario catch it?" },
  ],
  notes:
    "Exit codes: 0 every mutant fails the rules it declares and no other, and (over the whole catalogue) every\n" +
    "MUST rule has a mutant or a reason; 1 otherwise; 2 a mutant's run gave no verdicts, or a configuration error.",
  async run({ values }) {
    const { teeth, teethText } = await import("../authoring/teeth.js");
    await checkTags(values.tags);
    const { matrix, exitCode } = await teeth({
      tags: values.tags,
      jobs: values.jobs,
      reports: path.resolve(values.reports, "teeth"),
      mutants: values.mutant,
      seed: values.seed,
      write: (t) => process.stdout.write(t),
    });
    await print(teethText(matrix));
    return exitCode;
  },
});
