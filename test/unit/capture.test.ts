import assert from "node:assert/strict";
import { test } from "node:test";
import { PNG } from "pngjs";
import { LomiError } from "../../protocol/errors.js";
import { Simulator } from "../../simulator/simulator.js";
import { readWorldFile } from "../../simulator/world-file.js";

const permit = (operationId: string) => ({ operationId, receiptKey: "a".repeat(64), fingerprint: "b".repeat(64) });

function approvedSim() {
  const sim = new Simulator({ ...readWorldFile(), autoApprovePairings: true }, 5);
  const { pairingId } = sim.pairing("agent");
  const capture = (panelId: string) => sim.observeCapture(pairingId, { kind: "capture", workspaceId: "ws-alpha", panelId });
  return { sim, pairingId, capture };
}

function decoded(png: string) {
  const image = PNG.sync.read(Buffer.from(png, "base64"));
  const colours = new Set<number>();
  for (let i = 0; i < image.data.length; i += 4) colours.add(image.data.readUInt32BE(i));
  return { width: image.width, height: image.height, colours: colours.size };
}

test("every panel kind captures as a PNG of the size its metadata states, with something drawn on it", async () => {
  const { sim, pairingId, capture } = approvedSim();
  const args = { workspaceId: "ws-alpha", cwdRelative: "", title: "Tests", expectedRevision: "7", retryEpoch: "epoch-12345678", requestKey: "k" };
  sim.dispatch({ permit: permit("op-1"), pairingId, tool: "lomi_terminal_create", workspaceId: "ws-alpha", projectId: "proj-app", args });
  const ws = sim.world.workspace("ws-alpha");
  // No tool opens an Android panel yet; the capture of one is its placeholder screen.
  ws.panels.push({ kind: "android", panelId: "panel-phone", projectId: "proj-app", title: "Phone", generation: "gen-1", device: "Pixel 8" });
  for (const panel of ws.panels) {
    const shot = capture(panel.panelId);
    const image = decoded(shot.png);
    assert.deepEqual({ kind: shot.kind, width: image.width, height: image.height }, { kind: panel.kind, width: shot.width, height: shot.height });
    assert.ok(image.colours >= 3, `${panel.kind} capture has ${image.colours} colours`);
  }
  assert.equal(capture("panel-phone").runtimeGeneration, "gen-1");
});

test("a capture of a panel the workspace does not have is NOT_FOUND", () => {
  const { capture } = approvedSim();
  assert.throws(
    () => capture("Tests"),
    (e: unknown) => e instanceof LomiError && e.code === "NOT_FOUND" && e.details?.field === "panelId",
  );
});
