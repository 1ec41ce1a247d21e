import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { simulatorHandlers } from "../../simulator/handlers.js";
import { SimulatorHost } from "../../simulator/host.js";
import { serveHandlers } from "../../simulator/http-server.js";
import { Simulator } from "../../simulator/simulator.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { NativeClient } from "../../reference-broker/native-client.js";
import { HarnessError } from "../../harness/harness-error.js";
import { SimControl } from "../../harness/lomi/sim-control.js";

const world = () => readWorldFile();
const permit = (operationId: string) => ({ operationId, receiptKey: "a".repeat(64), fingerprint: "b".repeat(64) });

function approvedSim() {
  const sim = new Simulator({ ...world(), autoApprovePairings: true }, 7);
  const { pairingId } = sim.pairing("agent");
  return { sim, pairingId };
}

const createArgs = { workspaceId: "ws-alpha", cwdRelative: "", title: "T", expectedRevision: "7", retryEpoch: "epoch-12345678", requestKey: "k" };

test("a second dispatch under a permit is refused and recorded as a replay", () => {
  const { sim, pairingId } = approvedSim();
  const request = { permit: permit("op-1"), pairingId, tool: "lomi_terminal_create", workspaceId: "ws-alpha", projectId: "proj-app", args: createArgs };
  assert.equal(sim.dispatch(request).progress.phase, "settled");
  assert.throws(
    () => sim.dispatch(request),
    (e: unknown) => e instanceof LomiError && e.code === "REPLAY_REFUSED",
  );
  assert.deepEqual(
    sim.ledgerEntries().map((e) => e.kind),
    ["dispatch", "effect", "settle", "replay"],
  );
  assert.equal(sim.snapshot().workspaces[0]!.panels.length, 1, "the replay changed nothing");
});

test("the same seed replays the same identifiers", () => {
  const ids = () => {
    const { sim, pairingId } = approvedSim();
    sim.dispatch({ permit: permit("op-1"), pairingId, tool: "lomi_terminal_create", workspaceId: "ws-alpha", projectId: "proj-app", args: createArgs });
    return JSON.stringify(sim.snapshot());
  };
  assert.equal(ids(), ids());
});

test("a held dispatch has no effect until released", () => {
  const { sim, pairingId } = approvedSim();
  sim.armFault("hold", "lomi_terminal_create");
  const { progress } = sim.dispatch({
    permit: permit("op-1"),
    pairingId,
    tool: "lomi_terminal_create",
    workspaceId: "ws-alpha",
    projectId: "proj-app",
    args: createArgs,
  });
  assert.deepEqual(progress, { phase: "running", effectState: "none" });
  assert.equal(sim.snapshot().workspaces[0]!.panels.length, 0);
  assert.equal(sim.release("op-1", "complete").phase, "settled");
  assert.equal(sim.snapshot().workspaces[0]!.panels.length, 1);
});

test("a dispatch that no longer passes the native validators fails with nothing done", () => {
  const { sim, pairingId } = approvedSim();
  sim.changeLayout("ws-alpha");
  const { progress } = sim.dispatch({
    permit: permit("op-1"),
    pairingId,
    tool: "lomi_terminal_create",
    workspaceId: "ws-alpha",
    projectId: "proj-app",
    args: createArgs,
  });
  assert.equal(progress.phase === "settled" && progress.error?.code, "REVISION_CONFLICT");
  assert.equal(sim.snapshot().workspaces[0]!.panels.length, 0);
});

test("the same handlers serve the bridge and control API over real HTTP on 127.0.0.1", async () => {
  const host = new SimulatorHost(world(), 3);
  const server = await serveHandlers(simulatorHandlers(host));
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const native = new NativeClient(server.url);
    const control = new SimControl(server.url);
    const { pairingId, state } = await native.pairing("agent", "broker-x");
    assert.equal(state, "pending");
    await assert.rejects(native.workspaces(pairingId), (e: unknown) => e instanceof LomiError && e.code === "PAIRING_REQUIRED");
    await control.decide("agent", "approve");
    assert.equal((await native.workspaces(pairingId)).workspaces.length, world().workspaces.length);
    await control.advanceClock(60_000);
    assert.equal(await native.now(), Date.parse("2026-01-05T09:01:00.000Z"));
    await control.armFault("lose-reply", "lomi_terminal_create");
    await assert.rejects(
      native.dispatch({ pairingId, tool: "lomi_terminal_create", workspaceId: "ws-alpha", projectId: "proj-app", args: createArgs }, permit("op-9")),
      (e: unknown) => e instanceof LomiError && e.code === "NATIVE_UNAVAILABLE",
    );
    assert.equal((await native.status("op-9")).phase, "settled", "the effect happened though the reply was lost");
    const bad = await fetch(`${server.url}/native/v1/dispatch`, { method: "POST", body: "{" });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: { code: string } }).error.code, "INVALID_ARGUMENT");
    // A request of the wrong shape names the field (the case: a permit's receiptKey must be 64 characters).
    const shortKey = await fetch(`${server.url}/native/v1/dispatch`, {
      method: "POST",
      body: JSON.stringify({
        pairingId,
        tool: "lomi_terminal_create",
        workspaceId: "ws-alpha",
        projectId: "proj-app",
        args: createArgs,
        permit: { ...permit("op-10"), receiptKey: "short" },
      }),
    });
    const refused = ((await shortKey.json()) as { error: { message: string; details: { field: string } } }).error;
    assert.equal(refused.details.field, "permit.receiptKey");
    assert.match(refused.message, /at permit\.receiptKey: Too small: expected string to have exactly 64 characters/);
  } finally {
    await server.close();
  }
});

test("a simulator that does not answer the harness is the harness's own failure, never a broker's rule failure", async () => {
  const server = await serveHandlers(simulatorHandlers(new SimulatorHost(readWorldFile(), 1)));
  const control = new SimControl(server.url);
  await server.close();
  await assert.rejects(
    control.ledger(),
    (error: unknown) => error instanceof HarnessError && error.kind === "harness" && /did not answer GET .*ledger/.test(error.message),
  );
});
