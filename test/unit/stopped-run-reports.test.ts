import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeMadeUpRun } from "../support/judge.js";
import { badgeSvg } from "../../harness/report/badge.js";
import { htmlReport } from "../../harness/report/html-report.js";
import { junitXml } from "../../harness/report/junit.js";
import { markdownReport } from "../../harness/report/markdown-report.js";
import { isConformant, judgeRules } from "../../harness/report/rule-verdicts.js";
import { notRunBanner } from "../../harness/report/run-summary.js";
import { NOT_RUN, type ScenarioResult } from "../../harness/report/scenario-results.js";
import { loadRules } from "../../harness/rules.js";

const rules = loadRules().rules.filter((r) => ["IDEM-01", "IDEM-02", "OP-01"].includes(r.id));
const STOP = "the run was stopped by SIGTERM";

const scenario = (name: string, tag: string, verdict: "pass" | "fail" | "not run"): ScenarioResult => ({
  name,
  uri: "features/x.feature",
  line: name.length,
  tags: [`@${tag}`],
  ...(verdict === "not run"
    ? { verdict: "not-applicable", status: NOT_RUN, reason: `${STOP} before this scenario finished` }
    : verdict === "pass"
      ? { verdict, status: "PASSED", reason: undefined }
      : { verdict, status: "FAILED", reason: "boom", blame: [tag] }),
  durationMs: 1,
});

const suite = [scenario("a", "IDEM-01", "pass"), scenario("bb", "IDEM-01", "pass"), scenario("ccc", "IDEM-02", "pass"), scenario("dddd", "OP-01", "pass")];

test("a rule whose scenarios were selected but none finished is not run, never a failure", () => {
  const [idem01] = judgeRules(
    rules.filter((r) => r.id === "IDEM-01"),
    [],
    new Set(["IDEM-01"]),
    undefined,
  );
  assert.equal(idem01?.verdict, "not-run");
  assert.equal(idem01?.reason, "not run: none of its scenarios finished");
  assert.equal(isConformant(idem01 ? [idem01] : [], "must"), false, "not run is no pass either");
});

test("a run stopped part way is NOT RUN in every report: rules judged on the scenarios that finished, the others not run, none failed", () => {
  const results = [
    scenario("a", "IDEM-01", "pass"),
    scenario("bb", "IDEM-01", "not run"),
    scenario("ccc", "IDEM-02", "not run"),
    scenario("dddd", "OP-01", "not run"),
  ];
  const { run, baselinedScenarioReason } = judgeMadeUpRun({ rules, results, suite, stopped: `${STOP} after 1 of 4 scenario(s)` });
  assert.equal(run.verdict, "not-run");
  assert.equal(run.headline, `NOT RUN: ${STOP} after 1 of 4 scenario(s); on what finished, 1 of 3 MUST rules judged: 1 pass`);
  assert.deepEqual(Object.fromEntries(run.rules.map((r) => [r.id, r.verdict])), { "IDEM-01": "pass", "IDEM-02": "not-run", "OP-01": "not-run" });
  const reason = (id: string) => run.rules.find((r) => r.id === id)?.reason;
  assert.equal(reason("IDEM-01"), `pass (1 of 2 scenarios; 1 not run: ${STOP} before this scenario finished)`);
  assert.equal(reason("IDEM-02"), `1 of 1 scenario(s) not run: ${STOP} before this scenario finished`);
  assert.deepEqual(run.scenarios, { total: 4, pass: 1, fail: 0, baselined: 0, notApplicable: 0, notRun: 3 });

  const md = markdownReport(run);
  assert.ok(md.startsWith(`## Lomi conformance: ${run.headline}\n`));
  assert.match(md, /Scenarios: 1 passed, 0 failed, 0 baselined, 0 not applicable, 3 not run \(of 4\)/);
  assert.match(md, /\| IDEM-02 \| MUST \| ○ not run \|/);
  // The page says what was judged, not that nothing was, above a grid with a pass in it.
  assert.equal(notRunBanner(run), `${run.headline}. The rules are judged on the scenarios that finished; the others read not run.`);
  const html = htmlReport(run);
  assert.ok(html.includes(`✗ ${notRunBanner(run)}`));
  assert.doesNotMatch(html, /nothing was judged/);
  assert.match(html, /class="cell verdict-not-run"/);
  const junit = junitXml(run, results, baselinedScenarioReason);
  assert.match(junit, /<testsuites [^>]*failures="0" errors="1" skipped="3"/);
  assert.match(junit, new RegExp(`<skipped message="not run: ${STOP} before this scenario finished"/>`));
  assert.match(badgeSvg(run), /<title>lomi conformance: not run<\/title>/);
});

test("a stopped run hides nothing that finished: a failed scenario fails its rule, and the headline counts it; still NOT RUN", () => {
  const results = [
    scenario("a", "IDEM-01", "fail"),
    scenario("bb", "IDEM-01", "not run"),
    scenario("ccc", "IDEM-02", "pass"),
    scenario("dddd", "OP-01", "not run"),
  ];
  const { run } = judgeMadeUpRun({ rules, results, suite, stopped: `${STOP} after 2 of 4 scenario(s)` });
  assert.equal(run.verdict, "not-run");
  assert.equal(run.headline, `NOT RUN: ${STOP} after 2 of 4 scenario(s); on what finished, 2 of 3 MUST rules judged: 1 pass, 1 fail`);
  assert.equal(run.rules.find((r) => r.id === "IDEM-01")?.verdict, "fail");
});

test("a run stopped before any scenario finished says nothing was judged, and why", () => {
  const results = suite.map((s) => scenario(s.name, s.tags[0]!.slice(1), "not run"));
  const { run } = judgeMadeUpRun({ rules, results, suite, stopped: `${STOP} after 0 of 4 scenario(s)` });
  assert.equal(run.headline, `NOT RUN: ${STOP} after 0 of 4 scenario(s); no MUST rule was judged`);
  assert.ok(run.rules.every((r) => r.verdict === "not-run"));
  assert.equal(notRunBanner(run), `NOT RUN: nothing was judged. ${STOP} after 0 of 4 scenario(s)`);
});

test("a stopped run never calls a baseline entry stale on the scenarios it finished: the others may still fail", () => {
  const results = [
    scenario("a", "IDEM-01", "pass"),
    scenario("bb", "IDEM-01", "not run"),
    scenario("ccc", "IDEM-02", "pass"),
    scenario("dddd", "OP-01", "pass"),
  ];
  const baseline = { file: "baseline.json", rules: new Map([["IDEM-01", { reason: "BRK-1" }]]), scenarios: new Map() };
  const { run } = judgeMadeUpRun({ rules, results, suite, baseline, baselineFile: "baseline.json", stopped: `${STOP} after 3 of 4 scenario(s)` });
  const idem01 = run.rules.find((r) => r.id === "IDEM-01");
  assert.equal(idem01?.baseline?.status, "partly-run");
  assert.equal(idem01?.reason, "baselined; the 1 of its 2 scenarios that ran passed, so the entry stands until a run of all of them passes");
});
