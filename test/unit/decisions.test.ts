import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { Simulator } from "../../simulator/simulator.js";
import { readWorldFile } from "../../simulator/world-file.js";

const permit = (operationId: string) => ({ operationId, receiptKey: "a".repeat(64), fingerprint: "b".repeat(64) });

function askingSim() {
  const sim = new Simulator({ ...readWorldFile(), autoApprovePairings: true }, 11);
  const { pairingId } = sim.pairing("agent");
  const change = (operationId: string, section: string, values: Record<string, unknown>) =>
    sim.dispatch({
      permit: permit(operationId),
      pairingId,
      tool: "lomi_settings_update",
      workspaceId: "ws-alpha",
      projectId: "proj-app",
      args: { workspaceId: "ws-alpha", section, values, expectedSettingsRevision: "1", retryEpoch: "epoch-12345678", requestKey: operationId },
    }).progress;
  const ask = (operationId: string, values: Record<string, boolean>) => change(operationId, "permissions", values);
  const changes = () => sim.ledgerEntries().filter((e) => e.kind === "effect" && e.detail.what === "settings.changed").length;
  return { sim, ask, change, changes };
}

test("a question waits in awaiting_user, listed, with nothing done", () => {
  const { sim, ask, changes } = askingSim();
  assert.deepEqual(ask("op-1", { allowNetwork: true }), { phase: "awaiting_user", effectState: "none" });
  assert.deepEqual(
    sim.pendingDecisions().map((d) => [d.operationId, d.tool]),
    [["op-1", "lomi_settings_update"]],
  );
  assert.equal(sim.status("op-1").phase, "awaiting_user");
  assert.equal(changes(), 0);
});

// AUTH-40 is Lomi's decision (docs/teeth.json): no broker can change which sections ask, so these stand in for a mutant.
test("only the permissions section asks: another section's change is saved at once, with no question", () => {
  const { sim, change, changes } = askingSim();
  const saved = change("op-1", "appearance", { theme: "dark" });
  assert.equal(saved.phase === "settled" && `${saved.state}/${saved.effectState}`, "succeeded/complete");
  assert.deepEqual(sim.pendingDecisions(), []);
  assert.equal(changes(), 1);
});

test("a denial settles failed with USER_DENIED and the effects so far; approval runs the work", () => {
  const { sim, ask, changes } = askingSim();
  ask("op-1", { allowNetwork: true });
  const denied = sim.decideOperation("op-1", "deny");
  assert.equal(denied.phase === "settled" && `${denied.state}/${denied.effectState}/${denied.error?.code}`, "failed/none/USER_DENIED");
  assert.equal(changes(), 0);
  ask("op-2", { allowNetwork: true });
  const approved = sim.decideOperation("op-2", "approve");
  assert.equal(approved.phase === "settled" && `${approved.state}/${approved.effectState}`, "succeeded/complete");
  assert.equal(changes(), 1);
  assert.deepEqual(sim.pendingDecisions(), []);
});

test("a decision is answered once; an answer for no pending decision is NOT_FOUND", () => {
  const { sim, ask } = askingSim();
  ask("op-1", { allowNetwork: true });
  sim.decideOperation("op-1", "approve");
  assert.throws(
    () => sim.decideOperation("op-1", "deny"),
    (e: unknown) => e instanceof LomiError && e.code === "NOT_FOUND",
  );
});

test("the validators run again on approval: a section that moved while the user decided fails with nothing done", () => {
  const { sim, ask, changes } = askingSim();
  ask("op-1", { allowNetwork: true });
  ask("op-2", { autoApproveCommands: true });
  sim.decideOperation("op-2", "approve");
  const late = sim.decideOperation("op-1", "approve");
  assert.equal(late.phase === "settled" && `${late.state}/${late.effectState}/${late.error?.code}`, "failed/none/REVISION_CONFLICT");
  assert.equal(changes(), 1);
});

test("a cancellation withdraws the question and settles cancelled", () => {
  const { sim, ask, changes } = askingSim();
  ask("op-1", { allowNetwork: true });
  const cancelled = sim.cancel("op-1");
  assert.equal(cancelled.phase === "settled" && `${cancelled.state}/${cancelled.effectState}`, "cancelled/none");
  assert.deepEqual(sim.pendingDecisions(), []);
  assert.equal(changes(), 0);
});
