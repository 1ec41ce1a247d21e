import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { conformance } from "../support/runs.js";

test("a scenario that arms fault hooks starts its broker on a store no killed spare was making: a broker that finishes its store only at initialize passes", async () => {
  const reports = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-armed-")), "reports");
  // CANCEL-01's scenarios run first, each starting the next scenario's broker ahead (a spare that
  // no client initializes, so its store stays half made); DUR-05 then arms a hook and kills it.
  const run = await conformance([
    "--broker-cmd",
    "node test/fixtures/brokers/store-at-initialize.mjs",
    "--broker-faults",
    "--tags",
    "@CANCEL-01 or @DUR-05",
    ...TIMEOUT_ARGS,
    "--reports",
    reports,
  ]);
  assert.equal(run.code, 0, run.output.slice(-3000));
  const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as { rules: Array<{ id: string; verdict: string }> };
  assert.equal(report.rules.find((r) => r.id === "DUR-05")?.verdict, "pass");
});
