import { command } from "./declaration.js";
import { print } from "./options.js";

/** `lomi-conformance lint`: a spec author's mistakes, with no broker. */
export const LINT = command({
  name: "lint",
  summary: "the suite's authoring mistakes, file:line each, with no broker",
  operands: { count: 0 },
  description:
    "The features, the rules, the source map and the generated docs checked with no broker, in seconds:\n" +
    "every authoring mistake at once, file:line each, with the step, rule or sentence meant. Every\n" +
    "conformance run lints first.",
  options: {},
  examples: [{ line: "LOMI_FEATURES_DIR=drafts lomi-conformance lint", says: "a folder of drafts (docs/writing-scenarios.md)" }],
  notes: "Exit codes: 0 no problem, 2 a problem (each listed).",
  async run() {
    const { lintSuite, lintText } = await import("../authoring/lint.js");
    const problems = await lintSuite();
    await print(
      problems.length === 0 ? "lomi-conformance lint: no problems\n" : `${lintText(problems)}\nlomi-conformance lint: ${problems.length} problem(s)\n`,
    );
    return problems.length === 0 ? 0 : 2;
  },
});
