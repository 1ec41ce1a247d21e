import assert from "node:assert/strict";
import { test } from "node:test";
import { CATALOGUE, publishedTool } from "../../protocol/catalogue.js";
import { publishedToolProblems, type ListedTool } from "../../harness/contract-checks/published-tools.js";

const catalogue = (): ListedTool[] => CATALOGUE.map((c) => JSON.parse(JSON.stringify(publishedTool(c))) as ListedTool);
const replace = (name: string, change: (t: ListedTool) => ListedTool) => catalogue().map((t) => (t.name === name ? change(t) : t));

test("a tools/list that publishes the catalogue's tools as they stand has no ENV-04 problem, descriptions reworded and union variants reordered", () => {
  assert.deepEqual(publishedToolProblems(catalogue()), []);
  const reworded = replace("lomi_operation_get", (t) => {
    const schema = JSON.parse(JSON.stringify(t.outputSchema).replace(/"description":"[^"]*"/g, '"description":"ours"'));
    schema.anyOf.reverse();
    return { ...t, outputSchema: schema };
  });
  assert.deepEqual(publishedToolProblems(reworded), []);
});

test("a generic output schema fails ENV-04 naming the tool and what it lacks", () => {
  const [problem, ...more] = publishedToolProblems(replace("lomi_store_reconcile", (t) => ({ ...t, outputSchema: { type: "object" } })));
  assert.deepEqual(more, []);
  assert.match(problem!, /^lomi_store_reconcile: outputSchema is not a union of 2 \(anyOf\/oneOf\)/);
});

test("a reply key left out, a key added, a looser object or a wrong hint are each named", () => {
  const drop = replace("lomi_store_status", (t) => {
    const schema = JSON.parse(JSON.stringify(t.outputSchema));
    delete schema.anyOf[0].properties.data.properties.unfinished;
    schema.anyOf[0].properties.data.properties.extra = { type: "string" };
    schema.anyOf[0].properties.data.additionalProperties = true;
    return { ...t, outputSchema: schema };
  });
  const [problem] = publishedToolProblems(drop);
  assert.match(problem!, /^lomi_store_status: outputSchema variant 1\.data lacks unfinished/);
  for (const words of ["lacks unfinished", "has keys the catalogue does not: extra", "allows keys it does not name"])
    assert.ok(problem!.includes(words), `${words}: ${problem}`);
  const hint = publishedToolProblems(replace("lomi_file_write", (t) => ({ ...t, annotations: { ...t.annotations, destructiveHint: false } })));
  assert.deepEqual(hint, ["lomi_file_write: annotations.destructiveHint: false, expected true"]);
});
