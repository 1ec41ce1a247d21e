import { command } from "./declaration.js";
import { print } from "./options.js";

/** `lomi-conformance steps`: what a spec author may write in a scenario. */
export const STEPS = command({
  name: "steps",
  summary: "the step vocabulary, with an example of each step",
  operands: { count: 0 },
  description:
    "Every step a scenario may use, each with an example, and the oracles that judge every scenario's\nhistory after its steps (docs/writing-scenarios.md).",
  options: {},
  examples: [{ line: "lomi-conformance steps | grep -i retry", says: "the steps that retry a call" }],
  async run() {
    const { formatVocabulary, stepVocabulary } = await import("../authoring/step-vocabulary.js");
    await print(formatVocabulary(await stepVocabulary(), (await import("../oracles/index.js")).ORACLES));
    return 0;
  },
});
