import { madeUpRule } from "../support/judge.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { isConformant, judgeRules } from "../../harness/report/rule-verdicts.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";

const rule = madeUpRule;
const scenario = (tag: string, verdict: ScenarioResult["verdict"], reason?: string): ScenarioResult => ({
  name: `${tag} ${verdict}`,
  uri: "features/x.feature",
  line: 1,
  tags: [`@${tag}`],
  verdict,
  status: verdict === "pass" ? "PASSED" : verdict === "fail" ? "FAILED" : "SKIPPED",
  reason,
  durationMs: 1,
});

const rules = [rule("A-01"), rule("A-02"), rule("A-03"), rule("A-04"), rule("A-05", "SHOULD")];
const covered = new Set(["A-01", "A-02", "A-03", "A-05"]);

test("fail beats not-applicable beats pass; a rule partly judged passes on what ran; no scenario means uncovered", () => {
  const results = [
    scenario("A-01", "pass"),
    scenario("A-02", "pass"),
    scenario("A-02", "fail", "boom"),
    scenario("A-03", "pass"),
    scenario("A-03", "not-applicable", "no crash"),
    scenario("A-05", "not-applicable", "no crash"),
  ];
  const judged = judgeRules(rules, results, covered, undefined);
  const verdicts = Object.fromEntries(judged.map((r) => [r.id, r.verdict]));
  assert.deepEqual(verdicts, { "A-01": "pass", "A-02": "fail", "A-03": "pass", "A-04": "uncovered", "A-05": "not-applicable" });
  assert.equal(judged.find((r) => r.id === "A-03")?.reason, "pass (1 of 2 scenarios; the rest not judged here: no crash)");
});

test("not-applicable never counts as a pass for conformance", () => {
  const results = [scenario("A-01", "not-applicable", "no crash")];
  const judged = judgeRules([rule("A-01")], results, new Set(["A-01"]), undefined);
  assert.equal(isConformant(judged, "must"), false);
});

test("rules outside the tag selection are not judged; the selected ones must pass", () => {
  const judged = judgeRules(
    rules.filter((r) => covered.has(r.id)),
    [scenario("A-01", "pass")],
    covered,
    new Set(["A-01"]),
  );
  assert.equal(judged.find((r) => r.id === "A-02")?.verdict, "not-selected");
  assert.equal(isConformant(judged, "must"), true);
});

test("the level decides whether SHOULD rules count", () => {
  const judged = judgeRules([rule("A-01"), rule("A-05", "SHOULD")], [scenario("A-01", "pass"), scenario("A-05", "fail")], new Set(["A-01", "A-05"]), undefined);
  assert.equal(isConformant(judged, "must"), true);
  assert.equal(isConformant(judged, "should"), false);
});

test("an uncovered MUST rule keeps a run from being conformant", () => {
  const judged = judgeRules([rule("A-01"), rule("A-04")], [scenario("A-01", "pass")], new Set(["A-01"]), undefined);
  assert.equal(isConformant(judged, "must"), false);
});

test("a run that judged nothing is not conformant", () => {
  assert.equal(isConformant([], "must"), false);
});
