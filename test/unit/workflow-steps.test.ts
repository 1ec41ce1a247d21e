import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { runWorkflow, type WorkflowContext } from "../support/workflow-steps.js";

// The test runner of workflow steps (test/support/workflow-steps.ts) on a composite action of the
// repository, as the adopter test runs the kit's action.yml: inputs from `with:` and their defaults,
// GITHUB_ACTION_PATH, the action's outputs from its steps', a failure with its exit code.

const ACTION = `inputs:
  name: { required: true }
  greeting: { default: hello }
  code: { default: "0" }
outputs:
  said: { value: "\${{ steps.say.outputs.said }}" }
runs:
  using: composite
  steps:
    - id: say
      shell: bash
      env: { GREETING: "\${{ inputs.greeting }}", WHO: "\${{ inputs.name }}", CODE: "\${{ inputs.code }}" }
      run: |
        test -f "$GITHUB_ACTION_PATH/action.yml"
        echo "said=$GREETING $WHO" >> "$GITHUB_OUTPUT"
        exit "$CODE"
`;

function repository(withs: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-workflow-steps-"));
  mkdirSync(path.join(dir, "my-action"));
  writeFileSync(path.join(dir, "my-action", "action.yml"), ACTION);
  writeFileSync(
    path.join(dir, "workflow.yml"),
    `jobs:
  one:
    steps:
      - id: a
        uses: ./my-action
        with: { ${withs} }
      - name: After
        env: { SAID: "\${{ steps.a.outputs.said }}" }
        run: echo "heard $SAID"
`,
  );
  return dir;
}

const context = (cwd: string): WorkflowContext => ({ cwd, env: {}, expressions: {}, conditions: () => undefined, uses: () => undefined });

test("a composite action runs its steps with its inputs and defaults; a later step reads its outputs", async () => {
  const dir = repository("name: world");
  const [action, after] = await runWorkflow(path.join(dir, "workflow.yml"), context(dir));
  assert.equal(action!.outcome, "success", action!.output);
  assert.deepEqual(action!.outputs, { said: "hello world" });
  assert.equal(after!.output.trim(), "heard hello world");
});

test("an action's failing step fails it with that step's exit code, and the next step is skipped; an input it does not declare is refused", async () => {
  const dir = repository('name: world, code: "3"');
  const [action, after] = await runWorkflow(path.join(dir, "workflow.yml"), context(dir));
  assert.deepEqual([action!.outcome, action!.code, action!.outputs], ["failure", 3, { said: "hello world" }]);
  assert.equal(after!.outcome, "skipped");
  const typo = repository("nmae: world");
  await assert.rejects(runWorkflow(path.join(typo, "workflow.yml"), context(typo)), /gives .* the inputs nmae, which its action\.yml does not declare/);
});
