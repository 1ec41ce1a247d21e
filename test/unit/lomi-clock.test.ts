import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import type { Clock } from "../../protocol/ports.js";
import { parseDuration } from "../../simulator/duration.js";
import { SimulatorHost } from "../../simulator/host.js";
import { RealTimeClock } from "../../simulator/lomi-clock.js";
import { Simulator } from "../../simulator/simulator.js";
import { readWorldFile } from "../../simulator/world-file.js";

/** A system clock the test moves by hand: real time without waiting for it. */
function handClock(start: number): Clock & { pass(ms: number): void } {
  let now = start;
  return { now: () => now, pass: (ms) => void (now += ms) };
}

const permit = (operationId: string) => ({ operationId, receiptKey: "a".repeat(64), fingerprint: "b".repeat(64) });

/** Creates a terminal and starts "npm test" (2 s in the default world) in it; answers the run's operationId. */
function startTests(sim: Simulator): string {
  const { pairingId } = sim.pairing("agent");
  const identity = { retryEpoch: "epoch-12345678", requestKey: "k" };
  const base = { pairingId, workspaceId: "ws-alpha", projectId: "proj-app" };
  const created = sim.dispatch({
    ...base,
    permit: permit("op-create"),
    tool: "lomi_terminal_create",
    args: { workspaceId: "ws-alpha", cwdRelative: "", title: "T", expectedRevision: "7", ...identity },
  });
  assert.equal(created.progress.phase, "settled");
  const terminalSessionId = created.progress.phase === "settled" ? String(created.progress.result?.terminalSessionId) : "";
  sim.dispatch({
    ...base,
    permit: permit("op-run"),
    tool: "lomi_terminal_run",
    args: { workspaceId: "ws-alpha", terminalSessionId, command: "npm test", ...identity },
  });
  return "op-run";
}

test("a real-time clock follows its source and jumps ahead when advanced", () => {
  const source = handClock(1_000_000);
  const clock = new RealTimeClock(source);
  assert.equal(clock.now(), 1_000_000);
  source.pass(1500);
  assert.equal(clock.now(), 1_001_500);
  clock.advance(24 * 3_600_000);
  source.pass(500);
  assert.equal(clock.now(), 1_002_000 + 24 * 3_600_000);
});

test("on a real-time clock a command finishes once its time has passed, with nobody moving the clock", () => {
  const source = handClock(Date.parse("2030-01-01T00:00:00Z"));
  const sim = new Simulator({ ...readWorldFile(), autoApprovePairings: true }, 7, () => new RealTimeClock(source));
  const run = startTests(sim);
  assert.equal(sim.status(run).phase, "running");
  source.pass(1999);
  assert.equal(sim.status(run).phase, "running");
  source.pass(1);
  const done = sim.status(run);
  assert.equal(done.phase === "settled" && done.state, "succeeded");
  assert.equal(sim.now(), Date.parse("2030-01-01T00:00:02Z"), "Lomi's time is the source's, not the world's clockStart");
});

test("on the virtual clock a command waits for the clock to be advanced, and a reset keeps the mode", () => {
  for (const host of [new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 7, "virtual"), new SimulatorHost(readWorldFile(), 7)]) {
    host.reset({ ...readWorldFile(), autoApprovePairings: true }, 7);
    const sim = host.current;
    const run = startTests(sim);
    assert.equal(sim.now(), Date.parse(readWorldFile().clockStart!));
    assert.equal(sim.status(run).phase, "running");
    sim.advanceClock(2000);
    const done = sim.status(run);
    assert.equal(done.phase === "settled" && done.state, "succeeded");
  }
});

test("a real-time host stays real-time across a reset", () => {
  const host = new SimulatorHost(readWorldFile(), 7, "real");
  host.reset(readWorldFile(), 8);
  const before = Date.now();
  const now = host.current.now();
  assert.ok(now >= before && now <= Date.now(), "Lomi's clock reads the system clock");
});

test("the same seed replays the same run on the virtual clock", () => {
  const run = () => {
    const sim = new Simulator({ ...readWorldFile(), autoApprovePairings: true }, 7);
    startTests(sim);
    sim.advanceClock(2000);
    return JSON.stringify({ snapshot: sim.snapshot(), ledger: sim.ledgerEntries() });
  };
  assert.equal(run(), run());
});

test("durations read as a person writes them on a command line", () => {
  assert.equal(parseDuration("24h"), 86_400_000);
  assert.equal(parseDuration("90m"), 5_400_000);
  assert.equal(parseDuration("30s"), 30_000);
  assert.equal(parseDuration("1500ms"), 1500);
  assert.equal(parseDuration("2d"), 172_800_000);
  for (const bad of ["", "24", "h", "-1h", "1.5h", "24 h", "24hours"]) {
    assert.throws(
      () => parseDuration(bad),
      (e: unknown) => e instanceof LomiError && e.code === "INVALID_ARGUMENT",
      bad,
    );
  }
});
