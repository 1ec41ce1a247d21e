import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { judgedRuns } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

type Report = { verdict: string; headline: string; command: string; broker: { adapter: string; serverInfo?: { name: string } } };

const judged = judgedRuns();

test("one judging process makes run after run as lomi-conformance would: each its exit code, its reports, its broker and command line", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-judges-"));
  const report = (name: string) => JSON.parse(readFileSync(path.join(dir, name, "conformance.json"), "utf8")) as Report;
  const passed = await judged(["--tags", "@IDEM-01", ...TIMEOUT_ARGS, "--reports", path.join(dir, "reference")]);
  assert.equal(passed.code, 0, passed.output);
  assert.match(passed.output, /^lomi-conformance: seed 1, broker reference broker/m);
  assert.equal(report("reference").verdict, "conformant");

  // The same process, another broker: its own verdict, and the broker it ran named again.
  const failed = await judged(["--mutant", "idem-conflict-as-duplicate", "--tags", "@IDEM-02", ...TIMEOUT_ARGS, "--reports", path.join(dir, "mutant")]);
  assert.equal(failed.code, 1, failed.output);
  const mutant = report("mutant");
  assert.equal(mutant.verdict, "not-conformant");
  assert.match(mutant.broker.adapter, /idem-conflict-as-duplicate/);
  assert.equal(mutant.broker.serverInfo?.name, "lomi-reference-broker", "the second run reports its broker's identity too");
  assert.match(mutant.command, /^lomi-conformance --mutant idem-conflict-as-duplicate --tags @IDEM-02 /, "each run records its own command line");

  // A refusal is exit 2 with its reason, and reports saying NOT RUN; the process goes on to the next run.
  const refused = await judged(["--tags", "@OP-99", "--reports", path.join(dir, "refused")]);
  assert.equal(refused.code, 2, refused.output);
  assert.match(refused.output, /--tags "@OP-99" selects no scenario/);
  assert.equal(report("refused").verdict, "not-run");
  const again = await judged(["--tags", "@IDEM-01", ...TIMEOUT_ARGS, "--reports", path.join(dir, "again")]);
  assert.equal(again.code, 0, again.output);
});
