import assert from "node:assert/strict";
import { test } from "node:test";
import { finishedLine, liveLine, LONG_SCENARIO_MS, longNotesDue, progressLine, scenarioLabel, shardLine } from "../../harness/suite/progress-formatter.js";

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
