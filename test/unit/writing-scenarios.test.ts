import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { readScenarioResults } from "../../harness/report/scenario-results.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

test("the scenario in docs/writing-scenarios.md runs as it stands, with no code added", async () => {
  const doc = readFileSync(path.join(ROOT, "docs/writing-scenarios.md"), "utf8");
  const feature = /```gherkin\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(feature, "the page shows a feature");
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-doc-feature-"));
  writeFileSync(path.join(dir, "example.feature"), feature);
  const messages = path.join(dir, "messages.ndjson");
  const { runConfiguration } = await loadConfiguration(
    { file: false, provided: { paths: [path.join(dir, "example.feature")], import: [path.join(ROOT, "steps/**/*.ts")], strict: true, format: [`message:${messages}`] } },
    { cwd: ROOT },
  );
  const { success } = await runCucumber(runConfiguration, { cwd: ROOT });
  const results = readScenarioResults(messages);
  assert.deepEqual(results.map((r) => [r.name, r.verdict, r.reason]), [["Cancelling a command that failed leaves it failed, and nothing is interrupted", "pass", undefined]]);
  assert.ok(success);
});
