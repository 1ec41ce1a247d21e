import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { baselineReport, gateProblems, isConformant, judgeRules } from "../../harness/report/rule-verdicts.js";
import { baselineWarnings, loadBaseline, PLACEHOLDER_REASON, type Baseline } from "../../harness/report/baseline.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { judgedRuns } from "../support/runs.js";
import { madeUpRule, madeUpScenario } from "../support/judge.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

const entries = (reasons: Record<string, string>) => new Map(Object.entries(reasons).map(([name, reason]) => [name, { reason }]));
const baseline = (rules: Record<string, string>, scenarios: Record<string, string> = {}): Baseline => ({
  file: "baseline.json",
  rules: entries(rules),
  scenarios: entries(scenarios),
});
const RULES = [madeUpRule("A-01"), madeUpRule("A-02")];
const COVERED = new Set(["A-01", "A-02"]);

function gate(results: ScenarioResult[], b: Baseline, inSuite?: Record<string, number>) {
  const rules = judgeRules(RULES, results, COVERED, undefined, b, inSuite);
  const reported = baselineReport(rules, results, b, "2026-01-01T00:00:00.000Z");
  return { rules, entries: reported, problems: gateProblems(rules, "must", results, reported, b), conformant: isConformant(rules, "must") };
}

test("a baselined rule that fails is baselined: the gate passes, the run is not called conformant", () => {
  const g = gate([madeUpScenario("one", ["@A-01"], "fail"), madeUpScenario("two", ["@A-02"], "pass")], baseline({ "A-01": "JIRA-1" }));
  assert.equal(g.rules[0]!.verdict, "baselined");
  assert.deepEqual(g.problems, []);
  assert.equal(g.conformant, false);
  assert.deepEqual(
    g.entries.map((e) => e.status),
    ["expected-failure"],
  );
});

test("a baselined rule that passes is stale and fails the gate", () => {
  const g = gate([madeUpScenario("one", ["@A-01"], "pass"), madeUpScenario("two", ["@A-02"], "pass")], baseline({ "A-01": "JIRA-1" }));
  assert.equal(g.rules[0]!.verdict, "pass");
  assert.deepEqual(
    g.entries.map((e) => e.status),
    ["stale"],
  );
  assert.match(g.problems.join("\n"), /stale baseline entry: rule A-01/);
});

test("a baselined rule whose scenarios only partly ran (a --tags run) is not stale: the entry stands until all of them pass", () => {
  const g = gate([madeUpScenario("one", ["@A-01"], "pass"), madeUpScenario("two", ["@A-02"], "pass")], baseline({ "A-01": "JIRA-1" }), {
    "A-01": 3,
    "A-02": 1,
  });
  assert.deepEqual(
    g.entries.map((e) => e.status),
    ["partly-run"],
  );
  assert.deepEqual(g.problems, [], "a partial run does not fail the gate over it");
  assert.match(g.rules[0]!.reason ?? "", /the 1 of its 3 scenarios that ran passed/);
  const whole = gate(
    [
      madeUpScenario("one", ["@A-01"], "pass"),
      madeUpScenario("one-b", ["@A-01"], "pass"),
      madeUpScenario("one-c", ["@A-01"], "pass"),
      madeUpScenario("two", ["@A-02"], "pass"),
    ],
    baseline({ "A-01": "JIRA-1" }),
    { "A-01": 3, "A-02": 1 },
  );
  assert.deepEqual(
    whole.entries.map((e) => e.status),
    ["stale"],
  );
});

test("placeholder reasons are warned about, never silently accepted", () => {
  assert.deepEqual(baselineWarnings(baseline({ "A-01": PLACEHOLDER_REASON, "A-02": "BRK-142: retries race" }, { one: "todo later" })).length, 2);
});

test("a baselined scenario excuses only itself: another failing scenario of the same rule fails it", () => {
  const b = baseline({}, { one: "flaky upstream" });
  const alone = gate([madeUpScenario("one", ["@A-01"], "fail"), madeUpScenario("two", ["@A-02"], "pass")], b);
  assert.equal(alone.rules[0]!.verdict, "baselined");
  assert.deepEqual(alone.problems, []);
  const withAnother = gate([madeUpScenario("one", ["@A-01"], "fail"), madeUpScenario("three", ["@A-01"], "fail"), madeUpScenario("two", ["@A-02"], "pass")], b);
  assert.equal(withAnother.rules[0]!.verdict, "fail");
  assert.notDeepEqual(withAnother.problems, []);
});

test("a baselined scenario that passes is stale; one this run did not reach is only reported", () => {
  const g = gate([madeUpScenario("one", ["@A-01"], "pass"), madeUpScenario("two", ["@A-02"], "pass")], baseline({}, { one: "x", elsewhere: "y" }));
  assert.deepEqual(
    g.entries.map((e) => [e.name, e.status]),
    [
      ["one", "stale"],
      ["elsewhere", "not-run"],
    ],
  );
  assert.equal(g.problems.length, 1);
});

test("a failing scenario that cites no rule fails the gate", () => {
  assert.match(
    gate(
      [madeUpScenario("one", ["@A-01"], "pass"), madeUpScenario("two", ["@A-02"], "pass"), madeUpScenario("loose", [], "fail")],
      baseline({}),
    ).problems.join(),
    /"loose" failed and cites no rule/,
  );
});

test("a baseline that names an unknown rule or scenario is refused", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-baseline-"));
  const file = path.join(dir, "b.json");
  writeFileSync(file, JSON.stringify({ expectedFailures: [{ rule: "A-09", reason: "x" }] }));
  assert.throws(() => loadBaseline(file, new Set(["A-01"]), new Set()), /names the rule A-09/);
  writeFileSync(file, JSON.stringify({ expectedFailures: [{ scenario: "nope", reason: "x" }] }));
  assert.throws(() => loadBaseline(file, new Set(["A-01"]), new Set(["one"])), /names the scenario "nope"/);
  writeFileSync(file, JSON.stringify({ expectedFailures: [{ rule: "A-01" }] }));
  assert.throws(() => loadBaseline(file, new Set(["A-01"]), new Set()), /not valid/);
});

test("end to end: a broken broker gated by a baseline of what fails today exits 0 and shows it baselined; against a good broker the entries are stale; a typo exits 2", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-baseline-e2e-"));
  const write = (name: string, entries: unknown[]) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify({ expectedFailures: entries }));
    return file;
  };
  const report = (reports: string) =>
    JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as { verdict: string; rules: Array<{ id: string; verdict: string }> };
  // The gate does not depend on the adapter (test/e2e/adopter-ci.test.ts gates a command): in-process, it costs seconds.
  const broken = ["--mutant", "op-admission-as-completion", "--tags", "@OP-01", ...TIMEOUT_ARGS];

  const baseline = path.join(dir, "expected.json");
  const today = await conformance([...broken, "--reports", path.join(dir, "today"), "--write-baseline", baseline, "--baseline-entries", "rule"]);
  assert.equal(today.code, 1, "writing a baseline does not change today's verdict");
  const failing = report(path.join(dir, "today"))
    .rules.filter((r) => r.verdict === "fail")
    .map((r) => r.id);
  assert.ok(failing.includes("OP-01"), failing.join());
  const written = JSON.parse(readFileSync(baseline, "utf8")) as { expectedFailures: Array<{ rule: string; reason: string }> };
  assert.deepEqual(
    written.expectedFailures.map((e) => e.rule),
    failing,
  );
  assert.ok(
    written.expectedFailures.every((e) => e.reason === PLACEHOLDER_REASON),
    "each entry has a reason to fill in",
  );

  const gated = await conformance([...broken, "--reports", path.join(dir, "gated"), "--baseline", baseline]);
  assert.equal(gated.code, 0, gated.output.slice(-2000));
  assert.match(gated.output, /WARNING the baseline entry for rule OP-01 has no reason yet/, "a placeholder reason is warned about");
  const gatedReport = report(path.join(dir, "gated"));
  assert.equal(gatedReport.verdict, "conformant-with-baseline");
  assert.equal(gatedReport.rules.find((r) => r.id === "OP-01")?.verdict, "baselined");
  assert.match(readFileSync(path.join(dir, "gated", "conformance.md"), "utf8"), /\| OP-01 \| MUST \| 🟨 baselined/);
  assert.match(readFileSync(path.join(dir, "gated", "conformance.svg"), "utf8"), new RegExp(`${failing.length} baselined`));

  const stale = await conformance(["--tags", "@OP-01", "--reports", path.join(dir, "stale"), "--baseline", baseline]);
  assert.equal(stale.code, 1);
  assert.match(stale.output, /stale baseline entry: rule OP-01/);
  // One verdict everywhere: a stale entry makes the run not conformant in all five reports.
  const staleDir = path.join(dir, "stale");
  assert.match(
    stale.output,
    /lomi-conformance: partial run \(tags @OP-01\): \d+ of \d+ rules reached; on those: NOT CONFORMANT only because the baseline entry rule OP-01 is stale .* over in-process/,
  );
  assert.equal(report(staleDir).verdict, "not-conformant");
  assert.match(
    readFileSync(path.join(staleDir, "conformance.md"), "utf8"),
    /^## Lomi conformance: partial run \(tags `@OP-01`\): .*; on those: NOT CONFORMANT/,
  );
  assert.match(readFileSync(path.join(staleDir, "conformance.svg"), "utf8"), /<title>lomi conformance: not conformant/);
  const junit = readFileSync(path.join(staleDir, "junit.xml"), "utf8");
  assert.match(junit, /<property name="verdict" value="not-conformant"\/>/);
  assert.match(
    junit,
    /<testcase classname="lomi-conformance" name="lomi-conformance gate" time="0"><properties><property name="headline" value="partial run \(tags @OP-01\): [^"]*; on those: NOT CONFORMANT[^"]*"\/><\/properties><failure message="partial run \(tags @OP-01\): [^"]*NOT CONFORMANT[^"]*\(\d+ gate problem\(s\)\)" type="not-conformant">partial run \(tags @OP-01\): [^<]*NOT CONFORMANT[^<]*\nstale baseline entry: rule OP-01/,
  );
  assert.match(junit, /<property name="rule" value="OP-01"\/>/);

  // By scenario (the default): one entry per failing scenario, each by its exact name.
  const narrow = path.join(dir, "narrow.json");
  const mutant = ["--mutant", "idem-fresh-operation-per-retry", "--tags", "@IDEM-01", ...TIMEOUT_ARGS];
  assert.equal((await conformance([...mutant, "--reports", path.join(dir, "narrow"), "--write-baseline", narrow])).code, 1);
  const byScenario = JSON.parse(readFileSync(narrow, "utf8")) as { expectedFailures: Array<{ scenario?: string; rule?: string }> };
  assert.ok(
    byScenario.expectedFailures.length > 0 && byScenario.expectedFailures.every((e) => typeof e.scenario === "string" && e.rule === undefined),
    JSON.stringify(byScenario),
  );
  assert.equal((await conformance([...mutant, "--reports", path.join(dir, "narrow-gated"), "--baseline", narrow])).code, 0);

  const missing = await conformance(["--tags", "@OP-05", "--reports", path.join(dir, "missing"), "--baseline", path.join(dir, "nowhere.json")]);
  assert.equal(missing.code, 2);
  assert.match(missing.output, /no such file; write one with --write-baseline FILE/);

  const typo = await conformance(["--tags", "@OP-05", "--reports", path.join(dir, "typo"), "--baseline", write("typo.json", [{ rule: "OP-55", reason: "x" }])]);
  assert.equal(typo.code, 2);
  assert.match(typo.output, /names the rule OP-55, which docs\/rules.json does not have/);
  // Refused before any scenario ran, yet the reports say so (not an earlier run's verdict, not nothing).
  const typoReport = report(path.join(dir, "typo"));
  assert.equal(typoReport.verdict, "not-run");
  assert.match(readFileSync(path.join(dir, "typo", "conformance.md"), "utf8"), /NOT RUN: .*OP-55/);
  assert.match(readFileSync(path.join(dir, "typo", "junit.xml"), "utf8"), /<error message="NOT RUN: [^"]*OP-55/);
});
