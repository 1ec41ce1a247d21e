import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeRules } from "../../harness/report/rule-verdicts.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { blameOf, stepRules } from "../../harness/report/step-blame.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readScenarioResults } from "../../harness/report/scenario-results.js";
import { readEnvelopes } from "../../harness/report/message-stream.js";
import { BLAME_MEDIA_TYPE } from "../../harness/report/attachments.js";
import { messagesOf, type MadeUpScenario } from "../support/cucumber-messages.js";

// Scenario at line 10; steps at 11..16; "# checks" comments at 12 and 14.
const comments = [
  { line: 12, text: "    # checks OP-04" },
  { line: 14, text: "    # checks OP-03, EVT-01" },
  { line: 30, text: "    # checks AUTH-05" },
];
const stepLines = [11, 13, 15, 16];
const cited = ["OP-03", "OP-04", "EVT-01"];

test("a # checks comment covers the steps below it up to the next; steps above it check every cited rule", () => {
  const { rules, problems } = stepRules(comments, 10, stepLines, cited);
  assert.deepEqual(rules, [undefined, ["OP-04"], ["OP-03", "EVT-01"], ["OP-03", "EVT-01"]]);
  assert.deepEqual(problems, [], "the comment of a later scenario is not this one's");
});

test("a comment naming a rule the scenario does not cite is a problem of the suite, with its line", () => {
  const { problems } = stepRules([{ line: 12, text: "# checks OP-05" }], 10, stepLines, cited);
  assert.equal(problems[0]?.line, 12);
  assert.match(problems[0]!.problem, /names OP-05, which the scenario's tags do not cite/);
});

test("a failure is blamed on the rules its step checks; rules with checks still to come are unfinished", () => {
  const { rules } = stepRules(comments, 10, stepLines, cited);
  assert.deepEqual(blameOf(rules, 1, cited), { blame: ["OP-04"], unfinished: ["OP-03", "EVT-01"] });
  assert.deepEqual(blameOf(rules, 2, cited), { blame: ["OP-03", "EVT-01"], unfinished: [] });
  assert.deepEqual(blameOf(rules, 0, cited), { blame: cited, unfinished: [] }, "a scene-setting step blames every cited rule");
});

test("a failure that names its rule blames that rule alone, even in a step that checks every cited rule", () => {
  const { rules } = stepRules(comments, 10, stepLines, cited);
  assert.deepEqual(blameOf(rules, 0, cited, ["OP-04"]), { blame: ["OP-04"], unfinished: ["OP-03", "EVT-01"] }, "the other cited rules are not judged, never failed");
  assert.deepEqual(blameOf(rules, 2, cited, ["OP-03", "OP-04"]), { blame: ["OP-03"], unfinished: ["EVT-01"] }, "only named rules the step checks; EVT-01, checked again later, is not judged");
  assert.deepEqual(
    blameOf(rules, 2, cited, ["ENV-02"]),
    { blame: ["ENV-02"], unfinished: ["OP-03", "EVT-01"] },
    "a named rule the scenario does not cite is blamed itself; the rules its step checked are not judged, OP-04's earlier checks stand",
  );
});

test("a rule whose checks passed before another rule's step failed passes; one whose checks never ran is not judged", () => {
  const failed: ScenarioResult = {
    name: "close",
    uri: "features/x.feature",
    line: 10,
    tags: ["@OP-03", "@OP-04", "@EVT-01"],
    verdict: "fail",
    status: "FAILED",
    reason: "events",
    durationMs: 1,
    blame: ["EVT-01"],
    unfinished: ["OP-03"],
  };
  const rule = (id: string) => ({ id, level: "MUST" as const, title: id, source: "s" });
  const verdicts = Object.fromEntries(judgeRules([rule("OP-03"), rule("OP-04"), rule("EVT-01")], [failed], new Set(cited), undefined).map((r) => [r.id, r.verdict]));
  assert.deepEqual(verdicts, { "OP-03": "not-applicable", "OP-04": "pass", "EVT-01": "fail" });
});

test("a failure naming a rule its scenario does not cite fails that rule, even in a run whose tags did not select it; the cited rule is not judged", () => {
  const failed: ScenarioResult = {
    name: "open",
    uri: "features/x.feature",
    line: 10,
    tags: ["@OP-03"],
    verdict: "fail",
    status: "FAILED",
    reason: "ConformanceViolation: lomi_workspace_list replied status \"error\" with isError false",
    durationMs: 1,
    blame: ["ENV-02"],
    unfinished: ["OP-03"],
  };
  const rule = (id: string) => ({ id, level: "MUST" as const, title: id, source: "s" });
  const judged = judgeRules([rule("OP-03"), rule("ENV-02"), rule("ENV-03")], [failed], new Set(["OP-03", "ENV-02", "ENV-03"]), new Set(["OP-03"]));
  assert.deepEqual(Object.fromEntries(judged.map((r) => [r.id, r.verdict])), { "OP-03": "not-applicable", "ENV-02": "fail", "ENV-03": "not-selected" });
  assert.equal(judged.find((r) => r.id === "ENV-02")?.scenarios[0]?.name, "open", "the failing scenario is listed under the rule it fails");
});

test("a step with no # checks that fails after other rules' checks all ran blames the rest; with no answer in time it blames none", () => {
  // CAP-01 checked at step 1, CAP-05 at step 2, then an unannotated reconcile (step 3) fails.
  const rules = [undefined, ["CAP-01"], ["CAP-05"], undefined];
  const caps = ["CAP-01", "CAP-04", "CAP-05"];
  assert.deepEqual(blameOf(rules, 3, caps), { blame: ["CAP-04"], unfinished: [] }, "CAP-01 and CAP-05 keep the pass their checks earned");
  assert.deepEqual(blameOf(rules, 3, caps, [], true), { blame: [], unfinished: ["CAP-04"] }, "a timeout judges nothing: CAP-04 is not judged, never failed");
});

test("a step cucumber timed out, or a call --timeout-ms saw go unanswered, fails its scenario and blames none of its rules; a wrong answer blames them", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-timeouts-"));
  const judged = (s: Omit<MadeUpScenario, "tags" | "status">) => {
    const messages = path.join(dir, "messages.ndjson");
    writeFileSync(messages, messagesOf([{ ...s, tags: ["@AUTH-11"], status: "FAILED" }]));
    const [result] = readScenarioResults(readEnvelopes(messages));
    return { verdict: result?.verdict, blame: result?.blame, unfinished: result?.unfinished };
  };
  try {
    const late = { verdict: "fail", blame: [], unfinished: ["AUTH-11"] };
    assert.deepEqual(judged({ name: "cucumber's timeout", message: "Error: function timed out, ensure the promise resolves within 15000 milliseconds\n    at Timeout.<anonymous>" }), late);
    const unanswered = { body: JSON.stringify({ rules: [], noAnswer: true }), mediaType: BLAME_MEDIA_TYPE };
    assert.deepEqual(judged({ name: "initialize unanswered", message: "the broker did not complete MCP initialize (timeout 10000 ms): MCP error -32001: Request timed out", attachments: [unanswered] }), late);
    assert.deepEqual(judged({ name: "a wrong answer", message: "expected WORKSPACE_NOT_APPROVED, found NOT_FOUND" }), { verdict: "fail", blame: ["AUTH-11"], unfinished: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a rule some of whose scenarios passed while the others cannot run here passes on what ran, saying so", () => {
  const rule = { id: "EVT-01", level: "MUST" as const, title: "EVT-01", source: "s" };
  const base = { uri: "features/x.feature", line: 1, tags: ["@EVT-01"], status: "PASSED", durationMs: 1 };
  const results: ScenarioResult[] = [
    { ...base, name: "one", verdict: "pass", reason: undefined },
    { ...base, name: "two", verdict: "not-applicable", status: "SKIPPED", reason: "two connections at once" },
  ];
  const [judged] = judgeRules([rule], results, new Set(["EVT-01"]), undefined);
  assert.equal(judged!.verdict, "pass");
  assert.match(judged!.reason ?? "", /^pass \(1 of 2 scenarios; the rest not judged here: two connections at once\)$/);
  const stopped = judgeRules([rule], [results[0]!, { ...results[1]!, verdict: "fail", status: "FAILED", blame: [], unfinished: ["EVT-01"] }], new Set(["EVT-01"]), undefined);
  assert.equal(stopped[0]!.verdict, "not-applicable", "a scenario an earlier failure stopped leaves the rule not judged, not passed");
});
