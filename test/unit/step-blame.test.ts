import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeRules } from "../../harness/report/rule-verdicts.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { blameOf, stepRules } from "../../harness/report/step-blame.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { scenarioResults } from "../../harness/report/scenario-results.js";
import { readMessages } from "../../harness/report/message-stream.js";
import { BLAME_MEDIA_TYPE } from "../../harness/report/attachments.js";
import { messagesOf, type MadeUpScenario } from "../support/cucumber-messages.js";

// Scenario at line 10; steps at 11..16 (a When, then Thens); "# checks" comments at 12 and 14.
const comments = [
  { line: 12, text: "    # checks OP-04" },
  { line: 14, text: "    # checks OP-03, EVT-01" },
  { line: 30, text: "    # checks AUTH-05" },
];
const steps = [
  { line: 11, type: "Action" },
  { line: 13, type: "Outcome" },
  { line: 15, type: "Outcome" },
  { line: 16, type: "Outcome" },
];
const cited = ["OP-03", "OP-04", "EVT-01"];

test("a # checks comment covers the steps below it up to the next; above it a Then step checks every cited rule and a Given or When none", () => {
  const { rules, explicit, problems } = stepRules(comments, 10, steps, cited);
  assert.deepEqual(rules, [[], ["OP-04"], ["OP-03", "EVT-01"], ["OP-03", "EVT-01"]]);
  assert.deepEqual(explicit, [false, true, true, true]);
  assert.deepEqual(problems, [], "the comment of a later scenario is not this one's");
  const outcome = stepRules(
    [],
    10,
    [
      { line: 11, type: "Context" },
      { line: 12, type: "Action" },
      { line: 13, type: "Outcome" },
      { line: 14, type: undefined },
    ],
    cited,
  );
  assert.deepEqual(outcome.rules, [[], [], cited, cited], "a step of no known kind (an older message stream) checks as a Then step does");
});

test("a comment naming a rule the scenario does not cite is a problem of the suite, with its line", () => {
  const { problems } = stepRules([{ line: 12, text: "# checks OP-05" }], 10, steps, cited);
  assert.equal(problems[0]?.line, 12);
  assert.match(problems[0]!.problem, /names OP-05, which the scenario's tags do not cite/);
});

test("a failure is blamed on the rules its step checks; every other cited rule is left unjudged, those whose checks held said so", () => {
  const { rules, explicit } = stepRules(comments, 10, steps, cited);
  assert.deepEqual(blameOf(rules, explicit, 1, cited), { blame: ["OP-04"], unfinished: ["OP-03", "EVT-01"], held: [] });
  assert.deepEqual(
    blameOf(rules, explicit, 2, cited),
    { blame: ["OP-03", "EVT-01"], unfinished: ["OP-04"], held: ["OP-04"] },
    "OP-04's checks held before, yet a failed scenario passes it not",
  );
});

test("a step that only prepares the scenario fails it and judges none of its rules, unless its finding names one", () => {
  const { rules, explicit } = stepRules(comments, 10, steps, cited);
  assert.deepEqual(blameOf(rules, explicit, 0, cited), { blame: [], unfinished: cited, held: [], nothingJudged: "prepares" });
  assert.deepEqual(
    blameOf(rules, explicit, 0, cited, ["REV-01"]),
    { blame: ["REV-01"], unfinished: cited, held: [] },
    "a refusal the history shows to contradict REV-01 fails REV-01 alone",
  );
  assert.deepEqual(blameOf(rules, explicit, 0, cited, [], "unexpected-answer"), { blame: [], unfinished: cited, held: [], nothingJudged: "unexpected-answer" });
});

test("a failure that names its rule blames that rule alone, even in a step that checks every cited rule", () => {
  const { rules, explicit } = stepRules(
    [],
    10,
    steps.map((s) => ({ ...s, type: "Outcome" })),
    cited,
  );
  assert.deepEqual(
    blameOf(rules, explicit, 0, cited, ["OP-04"]),
    { blame: ["OP-04"], unfinished: ["OP-03", "EVT-01"], held: [] },
    "the other cited rules are not judged, never failed",
  );
  assert.deepEqual(
    blameOf(rules, explicit, 2, cited, ["OP-03", "OP-04"]),
    { blame: ["OP-03", "OP-04"], unfinished: ["EVT-01"], held: [] },
    "only named rules the step checks",
  );
  assert.deepEqual(
    blameOf(rules, explicit, 2, cited, ["ENV-02"]),
    { blame: ["ENV-02"], unfinished: cited, held: [] },
    "a named rule the scenario does not cite is blamed itself; the rules its step checked are not judged",
  );
});

test("no rule passes on a scenario that failed: a rule whose checks held before another rule's step failed is not judged, saying so", () => {
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
    unfinished: ["OP-03", "OP-04"],
    held: ["OP-04"],
  };
  const rule = (id: string) => ({ id, level: "MUST" as const, title: id, source: "s" });
  const judged = judgeRules([rule("OP-03"), rule("OP-04"), rule("EVT-01")], [failed], new Set(cited), undefined);
  assert.deepEqual(Object.fromEntries(judged.map((r) => [r.id, r.verdict])), { "OP-03": "not-applicable", "OP-04": "not-applicable", "EVT-01": "fail" });
  assert.match(judged.find((r) => r.id === "OP-04")!.scenarios[0]!.reason ?? "", /its checks of OP-04 held, then .*a failed scenario passes no rule/);
});

test("a failure naming a rule its scenario does not cite fails that rule, even in a run whose tags did not select it; the cited rule is not judged", () => {
  const failed: ScenarioResult = {
    name: "open",
    uri: "features/x.feature",
    line: 10,
    tags: ["@OP-03"],
    verdict: "fail",
    status: "FAILED",
    reason: 'ConformanceViolation: lomi_workspace_list replied status "error" with isError false',
    durationMs: 1,
    blame: ["ENV-02"],
    unfinished: ["OP-03"],
  };
  const rule = (id: string) => ({ id, level: "MUST" as const, title: id, source: "s" });
  const judged = judgeRules([rule("OP-03"), rule("ENV-02"), rule("ENV-03")], [failed], new Set(["OP-03", "ENV-02", "ENV-03"]), new Set(["OP-03"]));
  assert.deepEqual(Object.fromEntries(judged.map((r) => [r.id, r.verdict])), { "OP-03": "not-applicable", "ENV-02": "fail", "ENV-03": "not-selected" });
  assert.equal(judged.find((r) => r.id === "ENV-02")?.scenarios[0]?.name, "open", "the failing scenario is listed under the rule it fails");
});

test("a step that fails after other rules' checks all ran blames its own; with no answer in time it blames none", () => {
  // CAP-01 checked at step 1, CAP-05 at step 2, then an unannotated Then (step 3) fails.
  const rules = [["CAP-01", "CAP-04", "CAP-05"], ["CAP-01"], ["CAP-05"], ["CAP-01", "CAP-04", "CAP-05"]];
  const explicit = [false, true, true, false];
  const caps = ["CAP-01", "CAP-04", "CAP-05"];
  assert.deepEqual(blameOf(rules, explicit, 3, caps).blame, caps);
  assert.deepEqual(
    blameOf(rules, explicit, 3, caps, [], "no-answer"),
    { blame: [], unfinished: caps, held: ["CAP-01", "CAP-05"], nothingJudged: "no-answer" },
    "a timeout judges nothing: CAP-04 is not judged, never failed",
  );
});

test("a step cucumber timed out, or a call --timeout-ms saw go unanswered, fails its scenario and blames none of its rules; a wrong answer blames them", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-timeouts-"));
  const judged = (s: Omit<MadeUpScenario, "tags" | "status">) => {
    const messages = path.join(dir, "messages.ndjson");
    writeFileSync(messages, messagesOf([{ ...s, tags: ["@AUTH-11"], status: "FAILED" }]));
    const [result] = scenarioResults(readMessages(messages));
    return { verdict: result?.verdict, blame: result?.blame, unfinished: result?.unfinished, nothingJudged: result?.nothingJudged };
  };
  try {
    const late = { verdict: "fail", blame: [], unfinished: ["AUTH-11"], nothingJudged: "no-answer" };
    assert.deepEqual(
      judged({
        name: "cucumber's timeout",
        message: "Error: function timed out, ensure the promise resolves within 15000 milliseconds\n    at Timeout.<anonymous>",
      }),
      late,
    );
    const unanswered = { body: JSON.stringify({ rules: [], noAnswer: true }), mediaType: BLAME_MEDIA_TYPE };
    assert.deepEqual(
      judged({
        name: "initialize unanswered",
        message: "the broker did not complete MCP initialize (timeout 10000 ms): MCP error -32001: Request timed out",
        attachments: [unanswered],
      }),
      late,
    );
    assert.deepEqual(judged({ name: "a wrong answer", message: "expected WORKSPACE_NOT_APPROVED, found NOT_FOUND" }), {
      verdict: "fail",
      blame: ["AUTH-11"],
      unfinished: [],
      nothingJudged: undefined,
    });
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
  const stopped = judgeRules(
    [rule],
    [results[0]!, { ...results[1]!, verdict: "fail", status: "FAILED", blame: [], unfinished: ["EVT-01"] }],
    new Set(["EVT-01"]),
    undefined,
  );
  assert.equal(stopped[0]!.verdict, "not-applicable", "a scenario an earlier failure stopped leaves the rule not judged, not passed");
});
