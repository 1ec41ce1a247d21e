import assert from "node:assert/strict";
import { test } from "node:test";
import { STEP_EXAMPLES } from "../../harness/authoring/step-examples.js";
import { stepVocabulary } from "../../harness/authoring/step-vocabulary.js";

const vocabulary = await stepVocabulary();

test("every registered step has an example, from a feature or the examples table", () => {
  assert.ok(vocabulary.steps.length > 30, `only ${vocabulary.steps.length} steps found`);
  assert.deepEqual(
    vocabulary.steps.filter((s) => !s.example).map((s) => `${s.pattern} (${s.definedAt})`),
    [],
  );
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

test("the listing says which rules a step's own checks name, helpers of its file included, and names none for a step that judges its scenario's rules", () => {
  const judges = (pattern: string) => vocabulary.steps.find((s) => s.pattern === pattern)?.judges;
  // The events steps check legality through judgePath, a function beside them.
  assert.deepEqual(judges("the events of workspace {string} show {string} reaching {state}")?.sort(), ["EVT-01", "OP-02", "OP-30", "OP-40"]);
  assert.deepEqual(judges("{agent} captures the panel of {string}"), ["ENV-10"]);
  assert.deepEqual(judges("the reply is the error {code}"), []);
});
