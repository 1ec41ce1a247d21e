import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { loadWorkflow } from "../support/workflow-steps.js";

const RECIPE = "examples/ci/lomi-conformance.yml";

test("docs/implementers.md shows the CI recipe exactly as the file the end-to-end test runs", () => {
  const doc = readFileSync(kitPath("docs/implementers.md"), "utf8");
  const block = new RegExp(`<!-- recipe:start ${RECIPE.replace(/[.]/g, "\\.")}[^>]*-->\\n\`\`\`yaml\\n([\\s\\S]*?)\`\`\`\\n<!-- recipe:end -->`).exec(doc)?.[1];
  assert.ok(block !== undefined, "docs/implementers.md has no recipe block between its markers");
  assert.equal(block, readFileSync(kitPath(RECIPE), "utf8"), `the block in docs/implementers.md differs from ${RECIPE}: copy the file into it`);
});

test("the CI recipe gates on the whole suite with fault hooks, two workers and the committed baseline, and keeps its reports whatever happened", () => {
  const { env, steps } = loadWorkflow(kitPath(RECIPE));
  assert.equal(env.LOMI_TAGS, "", "the gate runs the whole suite unless the team says otherwise");
  const gate = steps.find((s) => s.name === "Conformance")?.run ?? "";
  for (const option of ["--broker-faults", "--parallel 2", "--baseline conformance-baseline.json", "--reports reports"]) assert.ok(gate.includes(option), `the Conformance step lacks ${option}`);
  for (const name of ["Summary", "Comment on the pull request"]) assert.match(steps.find((s) => s.name === name)?.if ?? "", /^always\(\)/, `${name} must run after a failed gate`);
  assert.match(steps.find((s) => s.name === "Comment on the pull request")?.if ?? "", /head\.repo\.full_name == github\.repository/, "no comment from a fork's read-only token");
});
