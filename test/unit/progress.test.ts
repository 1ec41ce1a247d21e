import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { mock, test } from "node:test";
import type { IFormatterOptions } from "@cucumber/cucumber";
import ProgressFormatter, {
  finishedLine,
  liveLine,
  LONG_SCENARIO_MS,
  longNotesDue,
  progressLine,
  scenarioLabel,
  shardLine,
} from "../../harness/suite/progress-formatter.js";
import { PROGRESS_MEDIA_TYPE } from "../../harness/report/attachments.js";
import { MADE_UP_FEATURE, madeUpRun } from "../support/made-up-run.js";

test("a finished scenario is one line: count of total, its first rule and name, the outcome and seconds", () => {
  const label = scenarioLabel("A retry after a lost reply", ["@idempotency", "@IDEM-01", "@EPOCH-03"]);
  assert.equal(finishedLine(37, 268, label, "PASSED", 412), "[ 37/268] IDEM-01 A retry after a lost reply … passed 0.4 s");
  assert.equal(finishedLine(3, 9, scenarioLabel("No rule cited", ["@needs-crash"]), "FAILED", 12_000), "[3/9] No rule cited … FAILED 12.0 s");
});

test("the live line estimates what remains from the pace so far", () => {
  assert.equal(liveLine(0, 10, 0, "OP-05 first"), "[0/10] 0% · 0 s · OP-05 first");
  assert.equal(liveLine(5, 20, 60_000, undefined), "[5/20] 25% · 1 min 0 s · about 3 min 0 s left");
});

test("a long step's progress is one line under its scenario, its first line only", () => {
  assert.equal(progressLine("CAP-01 A full store", "filled 512 of 4096 receipts (3 s)\nmore"), "  CAP-01 A full store: filled 512 of 4096 receipts (3 s)");
});

test("a shard's line names the shard and estimates what is left of it from its pace so far; its last line has no estimate", () => {
  assert.equal(shardLine("2/3", "[10/90] REV-01 x … passed 0.1 s", 10, 90, 20_000), "[shard 2/3] [10/90] REV-01 x … passed 0.1 s · about 2 min 40 s left");
  assert.equal(shardLine("2/3", "[90/90] REV-01 x … passed 0.1 s", 90, 90, 180_000), "[shard 2/3] [90/90] REV-01 x … passed 0.1 s");
});

test("a scenario running long earns a still-running line at each LONG_SCENARIO_MS, none before", () => {
  assert.equal(longNotesDue(LONG_SCENARIO_MS - 1), 0);
  assert.equal(longNotesDue(LONG_SCENARIO_MS), 1);
  assert.equal(longNotesDue(3.5 * LONG_SCENARIO_MS), 3);
});

/** A progress formatter off a terminal, its log as written so far. */
function formatter(): { events: EventEmitter; log: () => string } {
  const events = new EventEmitter();
  let log = "";
  // The options a formatter off a terminal uses: the envelopes, the log, a stream that is no TTY; the rest is cucumber's own.
  new ProgressFormatter({
    eventBroadcaster: events,
    log: (t: string | Uint8Array) => (log += String(t)),
    stream: new PassThrough(),
    parsedArgvOptions: {},
  } as unknown as IFormatterOptions);
  return { events, log: () => log };
}

test("the log of a run off a terminal: a @slow scenario's note, a long step's progress, a failed attempt tried again, then each scenario's last attempt counted of all cucumber announced", () => {
  const { events, log } = formatter();
  const run = madeUpRun(MADE_UP_FEATURE, [
    { name: "one", steps: ["PASSED", "PASSED", { status: "FAILED", message: "Error: no" }], willBeRetried: true },
    { name: "one", steps: ["PASSED", "PASSED", "PASSED", "PASSED"], seconds: 2 },
    {
      name: "two 1",
      steps: ["PASSED", "PASSED", { status: "FAILED", message: "Error: counted 2" }],
      attachments: [{ body: "filled 3 of 4 receipts\nmore", mediaType: PROGRESS_MEDIA_TYPE }],
    },
  ]);
  for (const e of run) events.emit("envelope", e);
  assert.deepEqual(log().split("\n"), [
    "  IDEM-01 one: attempt 1 FAILED; trying it again on a fresh broker (--retries)",
    "[1/3] IDEM-01 one … passed 2.0 s (attempt 2)",
    "note: OP-03 two 1 is known to take long; the run is not stuck",
    "  OP-03 two 1: filled 3 of 4 receipts",
    "[2/3] OP-03 two 1 … FAILED 1.0 s",
    "",
  ]);
});

test("a scenario still running after LONG_SCENARIO_MS gets a line; its attempt that failed and is tried again has finished and gets none", (t) => {
  // The formatter's clock and its watch's interval, moved by hand: no wall clock.
  mock.timers.enable({ apis: ["Date", "setInterval"], now: 0 });
  t.after(() => mock.timers.reset());
  const { events, log } = formatter();
  const run = madeUpRun(MADE_UP_FEATURE, [
    { name: "one", steps: ["PASSED", "PASSED", { status: "FAILED", message: "Error: no" }], willBeRetried: true },
    { name: "one", steps: ["PASSED"] },
  ]);
  // The second attempt started (at 2 s) and has not finished, nor has the run.
  for (const e of run.slice(0, run.map((e) => e.testCaseFinished !== undefined).lastIndexOf(true))) events.emit("envelope", e);
  mock.timers.tick(2_000 + LONG_SCENARIO_MS);
  assert.deepEqual(log().split("\n"), [
    "  IDEM-01 one: attempt 1 FAILED; trying it again on a fresh broker (--retries)",
    "  IDEM-01 one: still running after 30 s",
    "",
  ]);
});
