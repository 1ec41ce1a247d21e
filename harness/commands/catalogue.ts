import { command, flag } from "./declaration.js";
import { print } from "./options.js";

/** `lomi-conformance catalogue`: the tools a broker serves, as docs/catalogue.md shows them. */
export const CATALOGUE = command({
  name: "catalogue",
  summary: "every tool a broker serves: input, reply, refusals, a real call",
  operands: { count: 0 },
  description: "The tool catalogue of docs/catalogue.md, from the contracts the harness checks replies against.",
  options: {
    json: flag({ help: "each tool's input and output JSON Schema, as the harness checks them" }),
  },
  examples: [{ line: "lomi-conformance catalogue --json > tools.json", says: "the JSON Schemas, to generate a broker's types from" }],
  async run({ values }) {
    const { catalogueJsonText, catalogueMarkdown, readExamples } = await import("../authoring/catalogue-doc.js");
    await print(values.json ? catalogueJsonText() : catalogueMarkdown(readExamples()));
    return 0;
  },
});
