import assert from "node:assert/strict";
import { test } from "node:test";
import { compareRuns } from "../../harness/compare/compare-runs.js";
import { comparisonMarkdown, comparisonText } from "../../harness/compare/compare-text.js";
import type { RunRecord } from "../../harness/report/run-record.js";

/** A run's record with these rule verdicts, each rule judged by one scenario of the same verdict. */
function run(verdicts: Record<string, string>, extra: Partial<RunRecord> = {}): RunRecord {
  const rules = Object.entries(verdicts).map(([id, verdict]) => ({
    id,
    level: "MUST",
    title: `${id} title`,
    verdict,
    reason: verdict === "pass" ? null : `${id} ${verdict}`,
    scenarios: [{ name: `${id} scenario`, uri: "features/x.feature", line: 10, verdict }],
  }));
  const provenance = { kit: { name: "lomi-conformance-kit", version: "0.1.0" }, rules: { digest: "sha256:aaaa" } };
  return {
    verdict: "not-conformant",
    headline: "NOT CONFORMANT",
    seed: 1,
    level: "must",
    tags: null,
    startedAt: "2026-12-06T00:00:00Z",
    broker: { adapter: "reference" },
    rules,
    provenance,
    ...extra,
  };
}

test("each rule and scenario falls in one kind of change, a baselined failure counting as a failure; only newly failing regresses", () => {
  const base = run({
    "A-01": "pass",
    "A-02": "fail",
    "A-03": "fail",
    "A-04": "pass",
    "A-05": "pass",
    "A-06": "baselined",
    "A-07": "not-selected",
    "A-08": "pass",
  });
  const head = run({
    "A-01": "fail",
    "A-02": "pass",
    "A-03": "baselined",
    "A-04": "not-applicable",
    "A-05": "flaky",
    "A-06": "fail",
    "A-07": "fail",
    "A-08": "not-selected",
  });
  const c = compareRuns(base, head, { base: "base", head: "head" });
  const ids = (k: keyof typeof c.rules) => c.rules[k].map((r) => r.id);
  assert.deepEqual(ids("newlyFailing"), ["A-01", "A-07"]);
  assert.deepEqual(ids("fixed"), ["A-02"]);
  assert.deepEqual(ids("stillFailing"), ["A-03", "A-06"]);
  assert.deepEqual(ids("newlyNotJudged"), ["A-04"], "not applicable now; a rule HEAD did not select is not said to be unjudged");
  assert.deepEqual(ids("flaky"), ["A-05"]);
  assert.deepEqual(
    c.scenarios.newlyFailing.map((s) => s.title),
    ["A-01 scenario", "A-07 scenario"],
    "scenarios from the rules when a record lacks scenarioVerdicts",
  );
  assert.equal(c.verdict, "regressed");
  assert.match(comparisonText(c), /^lomi-conformance compare: REGRESSED: 2 rule\(s\) newly failing \(A-01, A-07\)/);
  assert.match(
    comparisonMarkdown(c),
    /### Newly failing\n\n\| rule \| level \| base \| head \| now \|\n\|---\|---\|---\|---\|---\|\n\| A-01 \| MUST \| ✅ pass \| ❌ fail \| A-01 fail \|/,
  );
});

test("equal runs do not regress; runs of other seeds or selections are compared with a warning", () => {
  const same = run({ "A-01": "pass", "A-02": "fail" });
  const c = compareRuns(same, same, { base: "b", head: "h" });
  assert.equal(c.verdict, "no-regression");
  assert.deepEqual(c.warnings, []);
  assert.match(comparisonMarkdown(c), /NO REGRESSION/);
  const other = compareRuns(same, run({ "A-01": "pass", "A-02": "fail" }, { seed: 2, tags: "@A-01" }), { base: "b", head: "h" });
  assert.equal(other.verdict, "no-regression");
  assert.equal(other.warnings.length, 2);
  // Other rules, or a run that does not say which rules judged it, compare with a warning too.
  const otherRules = compareRuns(
    same,
    run({ "A-01": "pass", "A-02": "fail" }, { provenance: { kit: { name: "lomi-conformance-kit", version: "0.2.0" }, rules: { digest: "sha256:bbbb" } } }),
    { base: "b", head: "h" },
  );
  assert.deepEqual(otherRules.warnings, [
    "the runs used different rules: BASE sha256:aaaa, HEAD sha256:bbbb (BASE lomi-conformance-kit 0.1.0, HEAD lomi-conformance-kit 0.2.0); a rule's verdict may have changed with its wording or its scenarios",
  ]);
  const silent = compareRuns(run({ "A-01": "pass" }, { provenance: undefined }), same, { base: "b", head: "h" });
  assert.deepEqual(silent.warnings, ["BASE does not say which rules judged it (a kit before provenance): the two runs may have used different rules"]);
});

test("scenario verdicts are read as recorded: a flaky scenario is its own change, whatever the rule says", () => {
  const base = run({ "A-01": "pass" }, { scenarioVerdicts: [{ name: "s", uri: "features/x.feature", line: 3, verdict: "pass", seed: 9 }] });
  const head = run({ "A-01": "pass" }, { scenarioVerdicts: [{ name: "s", uri: "features/x.feature", line: 3, verdict: "flaky", seed: 9 }] });
  const c = compareRuns(base, head, { base: "b", head: "h" });
  assert.deepEqual(
    c.scenarios.flaky.map((s) => s.id),
    ["features/x.feature:3"],
  );
  assert.equal(c.verdict, "no-regression");
});
