import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { runFeature } from "../support/run-feature.js";
import { kitPath } from "../../protocol/kit-root.js";

const ROOT = kitPath();

test("the scenario in docs/writing-scenarios.md runs as it stands, with no code added", async () => {
  const doc = readFileSync(path.join(ROOT, "docs/writing-scenarios.md"), "utf8");
  const feature = /```gherkin\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(feature, "the page shows a feature");
  const { success, results } = await runFeature(feature);
  assert.deepEqual(
    results.map((r) => [r.name, r.verdict, r.reason]),
    [["Cancelling a command that failed leaves it failed, and nothing is interrupted", "pass", undefined]],
  );
  assert.ok(success);
});
