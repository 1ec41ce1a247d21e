import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeMadeUpRun, madeUpScenario } from "../support/judge.js";
import { junitXml } from "../../harness/report/junit.js";
import type { Attempt } from "../../harness/report/attempts.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import type { Rule } from "../../harness/rules.js";

const RULES: Rule[] = [
  { id: "OP-01", level: "MUST", title: "OP-01", source: "s" },
  { id: "OP-03", level: "MUST", title: "OP-03", source: "s" },
  { id: "OP-20", level: "SHOULD", title: "OP-20", source: "s" },
];
const scenario = (name: string, tags: string[], verdict: ScenarioResult["verdict"]) => madeUpScenario(name, tags, verdict, { line: 7 });
const tries = (...failed: boolean[]): Attempt[] =>
  failed.map((f, i) => ({ attempt: i + 1, seed: 100 + i, failed: f, ...(f ? { message: `attempt ${i + 1} broke` } : {}) }));

function judge(results: ScenarioResult[], attempts: Map<string, Attempt[]>, flakyOk = false) {
  return judgeMadeUpRun({
    rules: RULES,
    results,
    suite: results,
    seed: 3,
    invocation: { broker: ["--mutant", "m"], timeoutMs: 10, oracles: true },
    attempts,
    flakyOk,
  });
}

test("a scenario that passed only on a retry makes its rules flaky: a MUST one fails the gate, a SHOULD one at level must does not; --flaky-ok lets it pass", () => {
  const results = [scenario("race", ["@OP-01", "@OP-20"], "pass"), scenario("calm", ["@OP-03"], "pass")];
  const attempts = new Map([["features/x.feature:race", tries(true, false)]]);
  const { run } = judge(results, attempts);
  assert.deepEqual(
    run.rules.map((r) => [r.id, r.verdict]),
    [
      ["OP-01", "flaky"],
      ["OP-03", "pass"],
      ["OP-20", "flaky"],
    ],
  );
  assert.deepEqual(
    run.problems.map((p) => p.split(" (")[0]),
    ["OP-01: flaky"],
  );
  assert.equal(run.verdict, "not-conformant");
  assert.deepEqual(run.scenarios, { total: 2, pass: 1, flaky: 1, fail: 0, baselined: 0, notApplicable: 0 });
  const race = run.scenarioVerdicts!.find((s) => s.name === "race")!;
  assert.equal(race.verdict, "flaky");
  assert.deepEqual(
    race.attempts!.map((a) => [a.attempt, a.seed, a.verdict, a.replay]),
    [
      [1, 100, "fail", "lomi-conformance features/x.feature:7 --seed 3 --scenario-seed 100 --mutant m"],
      [2, 101, "pass", "lomi-conformance features/x.feature:7 --seed 3 --scenario-seed 101 --mutant m"],
    ],
  );
  const ok = judge(results, attempts, true).run;
  assert.equal(ok.verdict, "conformant");
  assert.equal(ok.rules[0]!.verdict, "flaky", "still said flaky");
  assert.match(ok.warnings.join("\n"), /OP-01 is flaky .*--flaky-ok/);
});

test("junit.xml: a flaky scenario passes with a <flakyFailure> per failed attempt; one that never passed fails with a <rerunFailure> per earlier attempt", () => {
  const results = [scenario("race", ["@OP-01"], "pass"), scenario("broken", ["@OP-03"], "fail")];
  const attempts = new Map([
    ["features/x.feature:race", tries(true, true, false)],
    ["features/x.feature:broken", tries(true, true)],
  ]);
  const { run, baselinedScenarioReason } = judge(results, attempts);
  const xml = junitXml(run, results, baselinedScenarioReason);
  const race = /<testcase [^>]*race"[^>]*>([\s\S]*?)<\/testcase>/.exec(xml)![1]!;
  assert.doesNotMatch(race, /<failure/);
  assert.equal((race.match(/<flakyFailure message="attempt \d \(seed 10\d\): attempt \d broke"/g) ?? []).length, 2);
  assert.match(race, /<stackTrace>replay: lomi-conformance features\/x.feature:7 --seed 3 --scenario-seed 100 --mutant m<\/stackTrace>/);
  const broken = /<testcase [^>]*broken"[^>]*>([\s\S]*?)<\/testcase>/.exec(xml)![1]!;
  assert.match(broken, /<failure [^>]*>[\s\S]*<\/failure><rerunFailure message="attempt 1 \(seed 100\)/);
  assert.equal((broken.match(/<rerunFailure /g) ?? []).length, 1);
});
