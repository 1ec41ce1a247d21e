import assert from "node:assert/strict";
import { test } from "node:test";
import { retriedOf, triesOf } from "../../harness/report/attempts.js";
import { collectMessages, MessageCollector, worstStep } from "../../harness/report/message-collector.js";
import { scenarioResults } from "../../harness/report/scenario-results.js";
import { MADE_UP_FEATURE, MADE_UP_URI, madeUpRun } from "../support/made-up-run.js";

const pickleNamed = (run: MessageCollector, name: string) => [...run.pickles.values()].find((p) => p.name === name)!;

test("the collector knows where each step and scenario is written, Background, Rule and outline rows included, and the feature's comments", () => {
  const run = collectMessages(madeUpRun(MADE_UP_FEATURE, []));
  const one = pickleNamed(run, "one");
  assert.deepEqual(
    one.steps.map((s) => run.stepText(s)),
    ["Given a broker", "When the agent calls", "Then it answers"],
  );
  assert.deepEqual(
    one.steps.map((s) => run.lineOf(s.astNodeIds[0])),
    [4, 8, 10],
  );
  assert.equal(run.scenarioLine(one), 7);
  assert.deepEqual(
    ["two 1", "two 2"].map((n) => run.scenarioLine(pickleNamed(run, n))),
    [20, 21],
    "an outline's scenario is its examples row",
  );
  assert.deepEqual(
    pickleNamed(run, "two 2").steps.map((s) => run.stepText(s)),
    ["Given a broker", "Then it counts 2"],
  );
  assert.deepEqual(run.commentsOf(MADE_UP_URI), [{ line: 9, text: "    # checks IDEM-01" }]);
  assert.equal(run.testCases.size, 3);
});

test("an attempt's outcome is its first step of the worst status, in cucumber's order of severity", () => {
  const run = collectMessages(
    madeUpRun(MADE_UP_FEATURE, [
      { name: "one", steps: ["PASSED", "PASSED", "UNDEFINED", { status: "FAILED", message: "then" }] },
      {
        name: "two 1",
        steps: [
          { status: "FAILED", message: "hook" },
          { status: "FAILED", message: "given" },
        ],
      },
      { name: "two 2", steps: ["PASSED", "PENDING", "AMBIGUOUS"] },
    ]),
  );
  const [one, two1, two2] = [...run.attempts.values()].map((a) => ({
    ...worstStep(a),
    at: a.testCase.testSteps.findIndex((t) => t.id === worstStep(a).testStepId),
  }));
  assert.deepEqual(one, { status: "FAILED", testStepId: one!.testStepId, message: "then", at: 3 }, "FAILED is worse than UNDEFINED, whichever came first");
  assert.deepEqual(two1, { status: "FAILED", testStepId: two1!.testStepId, message: "hook", at: 0 }, "of two failures, the first");
  assert.equal(two2!.status, "AMBIGUOUS");
  assert.equal(two2!.at, 2);
});

/** A scenario failed, then passed on a retry; another failed once. */
const RETRIED = madeUpRun(MADE_UP_FEATURE, [
  {
    name: "one",
    steps: ["PASSED", "PASSED", "PASSED", { status: "FAILED", message: "Error: no answer\nsecond line\n    at step (steps/x.ts:1:1)" }],
    willBeRetried: true,
    attachments: [{ body: "seed 11 (run seed 1)", mediaType: "text/plain" }],
  },
  {
    name: "one",
    steps: ["PASSED", "PASSED", "PASSED", "PASSED"],
    seconds: 2,
    attachments: [{ body: "seed 12 (run seed 1, retry 1)", mediaType: "text/plain" }],
  },
  { name: "two 1", steps: ["PASSED", "PASSED", { status: "FAILED", message: "Error: counted 2\n    at step (steps/x.ts:1:1)" }] },
]);

test("fed live, the collector holds what has come so far: an attempt with no step finished is UNKNOWN, one cucumber tries again is not the scenario's last; fed whole, the same view", () => {
  const live = new MessageCollector();
  const seen: string[] = [];
  for (const e of RETRIED) {
    live.collect(e);
    const started = e.testCaseStarted && live.attempts.get(e.testCaseStarted.id);
    if (started) seen.push(`${started.pickle.name} started: ${worstStep(started).status}`);
    const finished = e.testCaseFinished && live.attempts.get(e.testCaseFinished.testCaseStartedId);
    if (finished)
      seen.push(
        `${finished.pickle.name} finished${finished.finished?.willBeRetried ? ", tried again" : ""}: ${worstStep(finished).status}; last attempts: ${live
          .lastAttempts()
          .map((a) => `${a.pickle.name} #${a.attempt}`)
          .join(", ")}`,
      );
  }
  assert.deepEqual(seen, [
    "one started: UNKNOWN",
    "one finished, tried again: FAILED; last attempts: ",
    "one started: UNKNOWN",
    "one finished: PASSED; last attempts: one #1",
    "two 1 started: UNKNOWN",
    "two 1 finished: FAILED; last attempts: one #1, two 1 #0",
  ]);
  assert.deepEqual(live, collectMessages(RETRIED));
});

test("the attempts and the verdicts read the same view: each try with its seed, the scenario judged on its last", () => {
  const run = collectMessages(RETRIED);
  const tries = triesOf(run);
  assert.deepEqual(tries.get(`${MADE_UP_URI}:one`), [
    { attempt: 1, seed: 11, failed: true, message: "Error: no answer" },
    { attempt: 2, seed: 12, failed: false },
  ]);
  assert.deepEqual(tries.get(`${MADE_UP_URI}:two 1`), [{ attempt: 1, seed: undefined, failed: true, message: "Error: counted 2" }]);
  assert.deepEqual([...retriedOf(tries).keys()], [`${MADE_UP_URI}:one`], "a scenario tried once is not a retried one");

  const [one, two1] = scenarioResults(run);
  assert.deepEqual(
    { name: one!.name, verdict: one!.verdict, status: one!.status, line: one!.line, durationMs: one!.durationMs },
    { name: "one", verdict: "pass", status: "PASSED", line: 7, durationMs: 4 },
  );
  assert.equal(two1!.verdict, "fail");
  assert.equal(two1!.reason, "Error: counted 2");
  assert.equal(two1!.stepAt, `${MADE_UP_URI}:16`);
  assert.equal(two1!.line, 20);
  assert.deepEqual(two1!.blame, ["OP-03"]);
  assert.deepEqual(two1!.failure?.steps, [
    { text: "Given a broker", status: "PASSED" },
    { text: "Then it counts 1", status: "FAILED" },
  ]);
});
