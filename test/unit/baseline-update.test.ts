import assert from "node:assert/strict";
import { test } from "node:test";
import { PLACEHOLDER_REASON, type Baseline } from "../../harness/report/baseline.js";
import { updatedBaseline } from "../../harness/report/baseline-update.js";
import { judgeMadeUpRun, madeUpRule, madeUpScenario } from "../support/judge.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";

const rule = madeUpRule;
const RULES = [rule("OP-01"), rule("OP-03"), rule("EVT-01"), rule("CAP-01")];
const scenario = (name: string, tags: string[], verdict: ScenarioResult["verdict"]) => madeUpScenario(name, tags, verdict);

/** The run judged with the baseline in `file`, as a --tags run reaching these scenarios of a suite that also has a CAP-01 one. */
function judge(results: ScenarioResult[], baseline: Baseline) {
  return judgeMadeUpRun({
    rules: RULES,
    results,
    suite: [...results, scenario("fill", ["@CAP-01"], "pass"), scenario("cancel", ["@OP-03"], "pass")],
    tags: "not @CAP-01",
    baseline,
    baselineFile: "baseline.json",
  });
}

const BASELINE: Baseline = {
  file: "baseline.json",
  rules: new Map([["CAP-01", { reason: "BRK-2: fills are slow" }]]),
  scenarios: new Map([
    ["retry", { reason: "BRK-1: fixed last week" }],
    ["events", { reason: "BRK-3: still broken", issue: "https://issues.example/BRK-3" }],
  ]),
};

test("--update-baseline drops the stale entry, adds the new failure with a placeholder, and keeps every other entry with its reason and issue link", () => {
  const results = [scenario("retry", ["@OP-01"], "pass"), scenario("events", ["@EVT-01"], "fail"), scenario("cancel", ["@OP-03"], "fail")];
  const { run, baselinedScenarioReason } = judge(results, BASELINE);
  const update = updatedBaseline(BASELINE, run.baselineEntries, run.rules, results, baselinedScenarioReason, "scenario");
  assert.deepEqual(JSON.parse(update.text), {
    expectedFailures: [
      { rule: "CAP-01", reason: "BRK-2: fills are slow" },
      { scenario: "events", reason: "BRK-3: still broken", issue: "https://issues.example/BRK-3" },
      { scenario: "cancel", reason: PLACEHOLDER_REASON },
    ],
  });
  assert.deepEqual(update.dropped, ['scenario "retry"']);
  assert.deepEqual(update.added, ['scenario "cancel"']);
  assert.equal(update.kept, 2, "the rule this partial run never reached stays");
  assert.deepEqual(
    JSON.parse(updatedBaseline(BASELINE, run.baselineEntries, run.rules, results, baselinedScenarioReason, "rule").text).expectedFailures.at(-1),
    { rule: "OP-03", reason: PLACEHOLDER_REASON },
  );
});

test("when a stale entry is all that fails the run, the headline says so first; with another failure, it does not", () => {
  const onlyStale = judge([scenario("retry", ["@OP-01"], "pass"), scenario("events", ["@EVT-01"], "fail")], BASELINE).run;
  assert.equal(onlyStale.verdict, "not-conformant");
  assert.match(
    onlyStale.headline,
    /^NOT CONFORMANT only because the baseline entry scenario "retry" is stale \(passing now: remove it from baseline\.json, or run with --update-baseline baseline\.json\) over in-process: /,
  );
  const alsoFailing = judge([scenario("retry", ["@OP-01"], "pass"), scenario("cancel", ["@OP-03"], "fail")], BASELINE).run;
  assert.match(alsoFailing.headline, /^NOT CONFORMANT over in-process: /);
});
