import assert from "node:assert/strict";
import { test } from "node:test";
import { badgeMessage } from "../../harness/report/badge.js";
import { judgeMadeUpRun, madeUpRule, madeUpScenario } from "../support/judge.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { profileOf } from "../../harness/run/profiles.js";

const rule = madeUpRule;
const RULES = [rule("OP-01"), rule("OP-03"), rule("AUTH-05"), rule("EVT-01"), rule("OP-20", "SHOULD")];

// No reason unless a test gives one: the verdict line is read without it.
const scenario = (name: string, tags: string[], verdict: ScenarioResult["verdict"], more: Partial<ScenarioResult> = {}) =>
  madeUpScenario(name, tags, verdict, { reason: undefined, ...more });

const judge = (results: ScenarioResult[]) =>
  judgeMadeUpRun({
    rules: RULES,
    results,
    suite: results.map((r) => ({ name: r.name, tags: r.tags, uri: r.uri, line: 1 })),
    profile: profileOf({ adapter: "command", brokerCommand: "b", brokerCwd: "/", brokerFaults: true, seed: 1, timeoutMs: 10 }),
    broker: { adapter: "command", serverInfo: undefined },
  }).run;

// The issue: rules left unjudged by an earlier failing step were listed as the adapter's ("run over
// HTTP or an image to judge them"), and the headline and the badge counted different rules.
test("a rule an earlier failing step left unjudged is named as such, apart from the rules the adapter cannot judge", () => {
  const run = judge([
    scenario("retry", ["@OP-01", "@OP-03"], "fail", { blame: ["OP-01"], unfinished: ["OP-03"], failure: undefined }),
    scenario("isolation", ["@AUTH-05"], "not-applicable", { reason: "the adapter cannot open a second connection" }),
    scenario("events", ["@EVT-01"], "pass"),
  ]);
  assert.deepEqual(run.profile.notJudged, ["AUTH-05"]);
  assert.deepEqual(run.profile.notReached, ["OP-03"]);
  assert.match(
    run.headline,
    /^NOT CONFORMANT over stdio: 2 of 4 MUST rules judged; not judged here: AUTH-05; these need two connections to one running broker at once: run over HTTP .* to judge them; not judged because an earlier step of their scenarios failed: OP-03$/,
  );
});

test("the badge counts what the headline counts: the run level's rules, passing of those", () => {
  const run = judge([
    scenario("events", ["@EVT-01"], "pass"),
    scenario("retry", ["@OP-01", "@OP-03", "@OP-20"], "pass"),
    scenario("isolation", ["@AUTH-05"], "not-applicable", { reason: "no second connection" }),
  ]);
  assert.match(run.headline, /^CONFORMANT over stdio: 3 of 4 MUST rules judged; not judged here: AUTH-05/);
  assert.equal(badgeMessage(run), "conformant over stdio 3/4");
});

test("a partial run's headline says how many of the rules it judged it judged only in part", () => {
  const suite = [
    { name: "a", uri: "features/x.feature", line: 1, tags: ["@OP-01", "@EVT-01"] },
    { name: "b", uri: "features/x.feature", line: 9, tags: ["@OP-01"] },
  ];
  const { run } = judgeMadeUpRun({ rules: [rule("OP-01"), rule("EVT-01")], suite, tags: "@EVT-01", results: [scenario("a", ["@OP-01", "@EVT-01"], "pass")] });
  assert.match(run.headline, /^CONFORMANT over in-process: 2 of 2 MUST rules judged, 1 of them in part \(not every scenario of theirs ran\)$/);
});
