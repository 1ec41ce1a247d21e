import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import type { InputRequest } from "../../protocol/native-bridge.js";
import { Simulator } from "../../simulator/simulator.js";
import { readWorldFile } from "../../simulator/world-file.js";

const code = (c: string) => (e: unknown) => e instanceof LomiError && e.code === c;

function mobile() {
  const sim = new Simulator({ ...readWorldFile(), autoApprovePairings: true }, 11);
  const { pairingId } = sim.pairing("agent", "broker-1");
  const panel = sim.observePanels(pairingId, "ws-mobile").panels.find((p) => p.kind === "android");
  if (panel?.kind !== "android" || !panel.generation) throw new Error("the default world has an Android panel");
  const runtime = { kind: "android" as const, panelId: panel.panelId, generation: panel.generation };
  const { leaseId } = sim.acquireLease(pairingId, "ws-mobile", runtime);
  const tap = (inputSequence: string, x = 10): InputRequest => ({
    pairingId,
    tool: "lomi_android_input",
    workspaceId: "ws-mobile",
    leaseId,
    runtime,
    inputSequence,
    input: { kind: "tap", x, y: 10 },
  });
  const sent = () => sim.ledgerEntries().filter((e) => e.kind === "effect" && e.detail.what === "android.input").length;
  return { sim, tap, sent, runtime };
}

test("Lomi keeps no input history: it sends every input it accepts, deduplicating is the broker's", () => {
  const { sim, tap, sent } = mobile();
  const first = sim.input(tap("1"));
  const again = sim.input(tap("1"));
  assert.notEqual(first.dispatchId, again.dispatchId);
  assert.equal(sent(), 2);
});

test("a refused input leaves nothing in the ledger", () => {
  const { sim, tap, sent } = mobile();
  const before = sim.ledgerEntries().length;
  assert.throws(() => sim.input(tap("1", 5000)), code("OUT_OF_RANGE"));
  assert.equal(sim.ledgerEntries().length, before);
  assert.equal(sent(), 0);
});

test("a pairing served by another broker instance keeps none of the earlier instance's leases", () => {
  const { sim, tap, sent } = mobile();
  sim.pairing("agent", "broker-1");
  sim.input(tap("1"));
  sim.pairing("agent", "broker-2");
  assert.throws(
    () => sim.input(tap("2")),
    (e: unknown) => code("LEASE_EXPIRED")(e) && (e as LomiError).details?.reason === "broker-restarted",
  );
  assert.equal(sent(), 1);
});

test("a restart gives the Android panel a new generation and expires the old one's lease", () => {
  const { sim, tap, runtime } = mobile();
  const restarted = sim.restartRuntime("panel-pixel");
  if (!("generation" in restarted)) throw new Error("an Android runtime restarts into a new generation");
  const { generation } = restarted;
  assert.notEqual(generation, runtime.generation);
  assert.throws(() => sim.input(tap("1")), code("STALE_RUNTIME"));
  assert.throws(() => sim.input({ ...tap("1"), runtime: { ...runtime, generation } }), code("LEASE_EXPIRED"));
});
