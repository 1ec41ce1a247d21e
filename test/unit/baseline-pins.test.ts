import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { baselineOf, loadBaseline, type BaselineFile } from "../../harness/report/baseline.js";
import type { Attempt } from "../../harness/report/attempts.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { markdownReport } from "../../harness/report/markdown-report.js";
import { judgeMadeUpRun, madeUpRule } from "../support/judge.js";

// Baseline entries that pin what they expect (a failure, or not judged), link an issue, and mark a
// scenario known-flaky with an owner and a last day: what each does to the rules and the gate.

const rule = madeUpRule;
const RULES = [rule("OP-01"), rule("OP-03"), rule("DUR-08")];
const scenario = (name: string, tag: string, verdict: ScenarioResult["verdict"]): ScenarioResult => ({
  name,
  uri: "features/x.feature",
  line: 1,
  tags: [tag],
  verdict,
  status: verdict === "fail" ? "FAILED" : verdict === "pass" ? "PASSED" : "SKIPPED",
  reason: verdict === "pass" ? undefined : verdict === "fail" ? "boom" : "this broker has no fault hooks",
  durationMs: 1,
});
const STARTED = "2027-03-10T08:00:00.000Z";

function judge(results: ScenarioResult[], entries: BaselineFile["expectedFailures"], more: { requireAll?: boolean; attempts?: Map<string, Attempt[]> } = {}) {
  // Every rule has a scenario in the suite: one the results leave out is not run, not uncovered.
  const suite = [...results, ...RULES.map((r) => scenario(`of ${r.id}`, `@${r.id}`, "pass"))];
  return judgeMadeUpRun({
    rules: RULES,
    results,
    suite,
    baseline: baselineOf("baseline.json", { expectedFailures: entries }),
    baselineFile: "baseline.json",
    startedAt: STARTED,
    requireAll: more.requireAll ?? false,
    ...(more.attempts ? { attempts: more.attempts } : {}),
  }).run;
}

const statusOf = (run: ReturnType<typeof judge>, name: string) => run.baselineEntries.find((e) => e.name === name)?.status;

test("an entry that pins a failure: a failure is baselined; not judged now is a changed entry that fails the gate", () => {
  const failing = judge(
    [scenario("a", "@OP-01", "fail"), scenario("b", "@OP-03", "pass")],
    [{ rule: "OP-01", reason: "BRK-1", expect: "fail", issue: "https://issues.example/BRK-1" }],
  );
  assert.equal(failing.rules[0]!.verdict, "baselined");
  assert.equal(failing.verdict, "conformant-with-baseline");
  assert.match(failing.rules[0]!.reason ?? "", /baselined \(BRK-1 \(https:\/\/issues\.example\/BRK-1\)\)/, "the issue link is in the reason the reports show");

  const unjudged = judge([scenario("a", "@OP-01", "not-applicable"), scenario("b", "@OP-03", "pass")], [{ rule: "OP-01", reason: "BRK-1", expect: "fail" }]);
  assert.equal(statusOf(unjudged, "OP-01"), "changed");
  assert.equal(unjudged.verdict, "not-conformant");
  assert.ok(
    unjudged.problems.some((p) => /pins "fail", and this run did not judge it/.test(p)),
    unjudged.problems.join("\n"),
  );

  // Without a pin, not judged is no news (as before pins existed).
  const unpinned = judge([scenario("a", "@OP-01", "not-applicable"), scenario("b", "@OP-03", "pass")], [{ rule: "OP-01", reason: "BRK-1" }]);
  assert.equal(statusOf(unpinned, "OP-01"), "not-run");
  assert.deepEqual(unpinned.problems, []);
});

test("an entry that pins not judged: it excuses the rule under --require-all, and a failure is a failure", () => {
  const results = [scenario("hooks", "@DUR-08", "not-applicable"), scenario("b", "@OP-03", "pass")];
  const without = judge(results, [], { requireAll: true });
  assert.ok(without.problems.some((p) => p.startsWith("DUR-08: not judged (--require-all)")));
  const excused = judge(results, [{ rule: "DUR-08", reason: "our broker has no fault hooks", expect: "not-judged" }], { requireAll: true });
  assert.deepEqual(excused.problems, []);
  assert.equal(statusOf(excused, "DUR-08"), "expected-not-judged");
  assert.match(excused.rules.find((r) => r.id === "DUR-08")!.reason ?? "", /not judged here, as the baseline expects \(our broker has no fault hooks\)/);
  // By scenario too: every scenario of the rule not judged is pinned.
  const byScenario = judge(results, [{ scenario: "hooks", reason: "no fault hooks", expect: "not-judged" }], { requireAll: true });
  assert.deepEqual(byScenario.problems, []);
  assert.equal(statusOf(byScenario, "hooks"), "expected-not-judged");

  const failed = judge(
    [scenario("hooks", "@DUR-08", "fail"), scenario("b", "@OP-03", "pass")],
    [{ rule: "DUR-08", reason: "no fault hooks", expect: "not-judged" }],
  );
  assert.equal(failed.rules.find((r) => r.id === "DUR-08")!.verdict, "fail", "a failure the entry does not expect is not excused");
  assert.equal(statusOf(failed, "DUR-08"), "changed");
  assert.ok(failed.problems.some((p) => /pins "not judged", and it failed/.test(p)));
  const passed = judge(
    [scenario("hooks", "@DUR-08", "pass"), scenario("b", "@OP-03", "pass")],
    [{ scenario: "hooks", reason: "no fault hooks", expect: "not-judged" }],
  );
  assert.equal(statusOf(passed, "hooks"), "stale");
});

test("a known-flaky scenario: its failure and its flakiness pass the gate until its last day, then the entry fails the run", () => {
  const entry = {
    scenario: "retry",
    reason: "a race in our queue",
    expect: "flaky" as const,
    owner: "ana",
    expires: "2027-03-10",
    issue: "https://issues.example/Q-7",
  };
  const failing = judge([scenario("retry", "@OP-01", "fail"), scenario("b", "@OP-03", "pass")], [entry]);
  assert.equal(failing.rules[0]!.verdict, "baselined");
  assert.equal(statusOf(failing, "retry"), "known-flaky");
  assert.deepEqual(failing.problems, []);
  assert.match(
    failing.rules[0]!.scenarios[0]!.reason ?? "",
    /known flaky \(owner ana, until 2027-03-10\): a race in our queue \(https:\/\/issues\.example\/Q-7\)/,
  );

  // Failed, then passed on a retry: flaky, which fails a MUST rule unless the baseline knows it.
  const attempts = new Map([
    [
      "features/x.feature:retry",
      [
        { attempt: 1, seed: 1, failed: true },
        { attempt: 2, seed: 2, failed: false },
      ],
    ],
  ]);
  const flaky = [scenario("retry", "@OP-01", "pass"), scenario("b", "@OP-03", "pass")];
  assert.equal(judge(flaky, [], { attempts }).verdict, "not-conformant");
  const known = judge(flaky, [entry], { attempts });
  assert.equal(known.rules[0]!.verdict, "flaky", "still reported flaky");
  assert.equal(known.verdict, "conformant");
  assert.ok(known.warnings.some((w) => /OP-01 is flaky .*the baseline knows its flaky scenarios as flaky/.test(w)));
  // A passing known-flaky scenario is never stale: flaky things pass.
  assert.equal(statusOf(judge([scenario("retry", "@OP-01", "pass")], [entry]), "retry"), "known-flaky");

  const lapsed = judge([scenario("retry", "@OP-01", "fail"), scenario("b", "@OP-03", "pass")], [{ ...entry, expires: "2027-03-09" }]);
  assert.equal(statusOf(lapsed, "retry"), "expired");
  assert.equal(lapsed.rules[0]!.verdict, "fail", "past its day the entry excuses nothing");
  assert.ok(
    lapsed.problems.some(
      (p) =>
        p ===
        'the known-flaky baseline entry for scenario "retry" (owner ana) expired on 2027-03-09: make it pass reliably, or renew the entry in baseline.json',
    ),
  );
  assert.equal(
    statusOf(judge([scenario("retry", "@OP-01", "pass"), scenario("b", "@OP-03", "pass")], [{ ...entry, expires: "2027-03-09" }]), "retry"),
    "expired",
    "expired whatever the scenario did",
  );
  assert.match(
    markdownReport(lapsed),
    /\| scenario retry \| expired \| known flaky \(owner ana, until 2027-03-09\): a race in our queue \(https:\/\/issues\.example\/Q-7\) \|/,
  );
});

test("a baseline file's pins are checked: a known-flaky entry needs its owner and a date, a pin is fail or not-judged, an issue is a URL", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-baseline-pins-"));
  const load = (entries: unknown[]) => {
    const file = path.join(dir, "b.json");
    writeFileSync(file, JSON.stringify({ expectedFailures: entries }));
    return () => loadBaseline(file, new Set(["OP-01"]), new Set(["retry"]));
  };
  assert.throws(load([{ scenario: "retry", reason: "r", expect: "flaky", owner: "ana" }]), /is not valid/);
  assert.throws(load([{ scenario: "retry", reason: "r", expect: "flaky", owner: "ana", expires: "next week" }]), /is not valid/);
  assert.throws(
    load([{ rule: "OP-01", reason: "r", expect: "flaky", owner: "ana", expires: "2027-01-01" }]),
    /is not valid/,
    "a rule is never known-flaky: a scenario is",
  );
  assert.throws(load([{ rule: "OP-01", reason: "r", expect: "sometimes" }]), /is not valid/);
  assert.throws(load([{ rule: "OP-01", reason: "r", issue: "BRK-1" }]), /is not valid/);
  const b = load([
    { rule: "OP-01", reason: "r", expect: "not-judged", issue: "https://issues.example/1" },
    { scenario: "retry", reason: "r", expect: "flaky", owner: "ana", expires: "2027-01-01" },
  ])();
  assert.deepEqual(b.rules.get("OP-01"), { reason: "r", expect: "not-judged", issue: "https://issues.example/1" });
  assert.deepEqual(b.scenarios.get("retry"), { reason: "r", expect: "flaky", owner: "ana", expires: "2027-01-01" });
});
