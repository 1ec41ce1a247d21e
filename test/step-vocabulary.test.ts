import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { STEP_EXAMPLES } from "../harness/step-examples.js";
import { stepVocabulary } from "../harness/step-vocabulary.js";

const vocabulary = await stepVocabulary();

test("every registered step has an example, from a feature or the examples table", () => {
  assert.ok(vocabulary.steps.length > 30, `only ${vocabulary.steps.length} steps found`);
  assert.deepEqual(vocabulary.steps.filter((s) => !s.example).map((s) => `${s.pattern} (${s.definedAt})`), []);
});

test("every entry of the examples table names a registered step and matches it", () => {
  for (const [pattern, example] of Object.entries(STEP_EXAMPLES)) {
    const step = vocabulary.steps.find((s) => s.pattern === pattern);
    assert.ok(step, `no step is registered as ${pattern}`);
    assert.equal(step.example?.text, example, `the table's example for ${pattern} does not match it, or a feature uses the step now (then drop the entry)`);
  }
});

test("the custom parameter types are listed", () => {
  assert.deepEqual(vocabulary.parameters.map((p) => p.name).sort(), ["agent", "code", "codes", "effect", "outcome", "state", "states", "tool"]);
});

test("lomi-conformance steps prints every step with its example", () => {
  const r = spawnSync(process.execPath, ["bin/lomi-conformance.js", "steps"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  for (const s of vocabulary.steps) assert.ok(r.stdout.includes(`e.g. ${s.keyword} ${s.example!.text}`), s.pattern);
});
