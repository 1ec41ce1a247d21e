import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import type { RunRecord } from "../../harness/report/run-record.js";
import { type CliRun, judgedRuns } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

/** A mutant that answers a conflict as a duplicate: a handful of the suite's scenarios fail, the rest pass. */
const MUTANT = "idem-conflict-as-duplicate";
const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-rerun-"));
const reportsOf = (name: string) => path.join(dir, name);
const record = (name: string) => JSON.parse(readFileSync(path.join(reportsOf(name), "conformance.json"), "utf8")) as RunRecord;
const failedIn = (name: string) =>
  record(name)
    .scenarioVerdicts!.filter((s) => s.verdict === "fail")
    .map((s) => `${s.uri}:${s.name}`)
    .sort();

let whole: CliRun;
before(async () => {
  // One run of the suite (the store fills aside), in-process, on a seed other than the default and
  // two scenarios at a time: a rerun must take both up.
  whole = await conformance(["--mutant", MUTANT, "--seed", "7", "--parallel", "2", "--tags", "not @slow", ...TIMEOUT_ARGS, "--reports", reportsOf("whole")]);
});

test("after a run that fails K scenarios, --rerun-failed runs exactly those K, on its seed, broker and --parallel, and says which run it re-ran", async () => {
  assert.equal(whole.code, 1, whole.output);
  const failed = failedIn("whole");
  assert.ok(failed.length > 0 && failed.length < record("whole").scenarioVerdicts!.length / 4, `the mutant fails a few scenarios, not ${failed.length}`);

  const rerun = await conformance(["--rerun-failed", reportsOf("whole"), "--reports", reportsOf("rerun")]);
  assert.equal(rerun.code, 1, rerun.output);
  const again = record("rerun");
  assert.deepEqual(again.scenarioVerdicts!.map((s) => `${s.uri}:${s.name}`).sort(), failed, "exactly the failed scenarios ran again");
  assert.deepEqual(failedIn("rerun"), failed, "and fail again");
  assert.equal(again.seed, 7);
  assert.deepEqual(again.invocation?.broker, ["--mutant", MUTANT]);
  // As many at once as the run it reruns, so its failures take no longer than they did there.
  assert.equal(record("whole").invocation?.parallel, 2);
  assert.equal(again.invocation?.parallel, 2, "the rerun ran two scenarios at a time, as the run it reran");
  assert.match(again.broker.adapter, new RegExp(MUTANT));
  assert.equal(path.resolve(again.rerunOf!.reports), reportsOf("whole"), "as the user named it, relative to where the kit ran");
  assert.equal(again.rerunOf?.scenarios, failed.length);
  assert.match(
    readFileSync(path.join(reportsOf("rerun"), "conformance.md"), "utf8"),
    new RegExp(`^## Lomi conformance: partial run \\(rerun of the ${failed.length} failed scenario\\(s\\) of `),
  );

  // Options given on the command line win: the same failures against the reference broker pass, and then nothing is left to rerun.
  const fixed = await conformance(["--rerun-failed", reportsOf("rerun"), "--broker", "reference", "--parallel", "1", "--reports", reportsOf("fixed")]);
  assert.equal(fixed.code, 0, fixed.output);
  assert.equal(record("fixed").invocation?.parallel, 1);
  assert.equal(record("fixed").scenarioVerdicts!.length, failed.length);
  assert.ok(record("fixed").scenarioVerdicts!.every((s) => s.verdict === "pass"));
  const nothing = await conformance(["--rerun-failed", reportsOf("fixed"), "--reports", reportsOf("fixed")]);
  assert.equal(nothing.code, 0, nothing.output);
  assert.match(nothing.output, /failed no scenario: nothing to rerun/);
});

test("one scenario by FILE:LINE, or by --name with --tags, runs that scenario alone; a name that matches nothing, or a line past the file's end, is refused", async () => {
  const first = record("whole").scenarioVerdicts!.find((s) => s.verdict === "fail")!;
  const one = await conformance([`${first.uri}:${first.line}`, "--mutant", MUTANT, "--seed", "7", ...TIMEOUT_ARGS, "--reports", reportsOf("one")]);
  assert.equal(one.code, 1, one.output);
  assert.deepEqual(
    record("one").scenarioVerdicts!.map((s) => [s.name, s.verdict, s.seed]),
    [[first.name, "fail", first.seed]],
    "the same scenario, the same seed, the same failure",
  );

  const named = await conformance(["--name", "^A changed title", "--tags", "@IDEM-02", ...TIMEOUT_ARGS, "--reports", reportsOf("named")]);
  assert.equal(named.code, 0, named.output);
  assert.deepEqual(
    record("named").scenarioVerdicts!.map((s) => s.name),
    ["A changed title under the same key is a conflict"],
  );

  const typo = await conformance(["--name", "chnaged title", "--reports", reportsOf("typo")]);
  assert.equal(typo.code, 2, typo.output);
  assert.match(typo.output, /--name "chnaged title" matches no scenario's name; the nearest: "A changed title under the same key is a conflict"/);
  assert.equal(record("typo").verdict, "not-run");

  // A line past the file's end is refused (exit 2), not taken for its last scenario.
  const past = await conformance(["features/retry.feature:9999", "--reports", reportsOf("past")]);
  assert.equal(past.code, 2, past.output);
  assert.match(
    past.output,
    /features\/retry\.feature:9999 is past the end of features\/retry\.feature \(\d+ lines\); its scenarios start at lines \d+(, \d+)*/,
  );
  assert.equal(record("past").verdict, "not-run");
});
