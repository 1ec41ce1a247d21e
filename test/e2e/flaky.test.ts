import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { RunRecord } from "../../harness/report/run-record.js";
import { judgedRuns } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-flaky-"));
/** A broker that breaks one reply, once, in whichever scenario it falls (test/fixtures/brokers/fails-once.mjs); each run gets a fresh one. */
const failsOnce = (name: string) => ["--broker-cmd", `node test/fixtures/brokers/fails-once.mjs ${path.join(dir, `${name}.marker`)}`];
const SCENARIOS = ["--tags", "@IDEM-02 and @IDEM-03", ...TIMEOUT_ARGS];
const record = (name: string) =>
  JSON.parse(readFileSync(path.join(dir, name, "conformance.json"), "utf8")) as RunRecord & { warnings: string[]; problems: string[] };

test("--retries: a scenario that fails once and then passes is flaky, with each attempt's seed and replay line in every report, and fails the gate unless --flaky-ok", async () => {
  const plain = await conformance([...failsOnce("plain"), ...SCENARIOS, "--reports", path.join(dir, "plain")]);
  assert.equal(plain.code, 1, "without --retries the one failure is a plain failure");
  assert.deepEqual(
    record("plain")
      .scenarioVerdicts!.filter((s) => s.verdict !== "pass")
      .map((s) => s.verdict),
    ["fail"],
  );

  const retried = await conformance([...failsOnce("retried"), ...SCENARIOS, "--retries", "2", "--reports", path.join(dir, "retried")]);
  assert.equal(retried.code, 1, retried.output);
  const run = record("retried");
  const flaky = run.scenarioVerdicts!.filter((s) => s.verdict === "flaky");
  assert.equal(flaky.length, 1, "exactly the scenario the broker failed once");
  assert.ok(run.scenarioVerdicts!.every((s) => s.verdict === "pass" || s.verdict === "flaky"));
  const [first, second] = flaky[0]!.attempts!;
  assert.equal(flaky[0]!.attempts!.length, 2);
  assert.equal(first!.verdict, "fail");
  assert.equal(second!.verdict, "pass");
  assert.equal(first!.seed, flaky[0]!.seed, "the first attempt takes the scenario's own seed");
  assert.notEqual(second!.seed, first!.seed, "a retry takes a seed derived from it");
  for (const a of [first!, second!])
    assert.equal(
      a.replay,
      `lomi-conformance ${flaky[0]!.uri}:${flaky[0]!.line} --seed 1 --scenario-seed ${a.seed} ${failsOnce("retried")[0]} "${failsOnce("retried")[1]}"`,
    );
  // A MUST rule with a flaky scenario does not pass: each rule that scenario cites is flaky, and the gate fails on it.
  const flakyRules = run.rules.filter((r) => r.verdict === "flaky").map((r) => r.id);
  assert.ok(flakyRules.length > 0);
  assert.ok(flakyRules.every((id) => run.problems.some((p) => p.startsWith(`${id}: flaky`))));
  assert.equal(run.verdict, "not-conformant");
  const junit = readFileSync(path.join(dir, "retried", "junit.xml"), "utf8");
  assert.match(
    junit,
    new RegExp(
      `<flakyFailure message="attempt 1 \\(seed ${first!.seed}\\): [^"]*structuredContent is not a Lomi envelope[^"]*" type="attempt-1"><stackTrace>replay: lomi-conformance `,
    ),
  );
  assert.equal((junit.match(/<flakyFailure /g) ?? []).length, 1);
  const md = readFileSync(path.join(dir, "retried", "conformance.md"), "utf8");
  assert.ok(md.includes(`attempt 1 fail, seed ${first!.seed}`) && md.includes(second!.replay), "conformance.md lists each attempt with its replay line");
  assert.match(retried.output, new RegExp(`FLAKY "${flaky[0]!.name}"`));

  const tolerated = await conformance([...failsOnce("tolerated"), ...SCENARIOS, "--retries", "1", "--flaky-ok", "--reports", path.join(dir, "tolerated")]);
  assert.equal(tolerated.code, 0, tolerated.output);
  assert.equal(record("tolerated").verdict, "conformant");
  assert.ok(
    record("tolerated").rules.some((r) => r.verdict === "flaky"),
    "still reported flaky",
  );
  assert.ok(record("tolerated").warnings.some((w) => /is flaky .*--flaky-ok lets it pass the gate/.test(w)));
});
