import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError, type ErrorCode } from "../../protocol/errors.js";
import { readPage } from "../../simulator/browser/page-model.js";
import { fetchPage } from "../../simulator/browser/page-server.js";
import { NativeClient } from "../../reference-broker/native-client.js";
import { simulatorHandlers } from "../../simulator/handlers.js";
import { SimulatorHost } from "../../simulator/host.js";
import { serveHandlers } from "../../simulator/http-server.js";
import { Simulator } from "../../simulator/simulator.js";
import { readWorldFile } from "../../simulator/world-file.js";

const permit = (operationId: string) => ({ operationId, receiptKey: "a".repeat(64), fingerprint: "b".repeat(64) });
const identity = { workspaceId: "ws-alpha", retryEpoch: "epoch-12345678", requestKey: "k" };

async function openedBrowser(url = "https://docs.lomi.test/") {
  const sim = new Simulator({ ...readWorldFile(), autoApprovePairings: true }, 11);
  const { pairingId } = sim.pairing("agent");
  const dispatch = async (operationId: string, tool: string, args: Record<string, unknown>) => {
    sim.dispatch({
      permit: permit(operationId),
      pairingId,
      tool,
      workspaceId: "ws-alpha",
      projectId: "proj-app",
      args: { ...identity, requestKey: operationId, ...args },
    });
    await sim.idle();
    return sim.status(operationId);
  };
  const opened = await dispatch("op-open", "lomi_browser_open", { url, expectedRevision: "7" });
  if (opened.phase !== "settled" || opened.state !== "succeeded") throw new Error(`the browser did not open: ${JSON.stringify(opened)}`);
  const { panelId, browserGeneration } = opened.result as { panelId: string; browserGeneration: string };
  const snapshot = () => sim.observeBrowserSnapshot(pairingId, { kind: "browser-snapshot", workspaceId: "ws-alpha", panelId, browserGeneration });
  const check = (args: Record<string, unknown>) =>
    sim.check({ pairingId, tool: "lomi_browser_click", workspaceId: "ws-alpha", projectId: "proj-app", args: { ...identity, ...args } });
  return { sim, pairingId, panelId, browserGeneration, snapshot, check, dispatch };
}

const refusedWith = (code: ErrorCode, field: string) => (e: unknown) => e instanceof LomiError && e.code === code && e.details?.field === field;

function targetOf(snap: ReturnType<Awaited<ReturnType<typeof openedBrowser>>["snapshot"]>, name: string) {
  const element = snap.elements.find((e) => e.name === name)!;
  return {
    panelId: snap.panelId,
    browserGeneration: snap.browserGeneration,
    navigationId: snap.navigationId,
    snapshotId: snap.snapshotId,
    frameId: element.frameId,
    elementRef: element.elementRef,
  };
}

test("the fixture pages are read into titles, links with absolute hrefs, buttons, file inputs and iframes", async () => {
  const page = await fetchPage("https://docs.lomi.test/");
  assert.equal(page?.status, 200);
  const model = readPage(page!.body, "https://docs.lomi.test/");
  assert.equal(model.title, "Docs");
  assert.deepEqual(
    model.items.map((i) => i.kind),
    ["heading", "link", "link", "button", "iframe"],
  );
  assert.deepEqual(model.items[1], { kind: "link", text: "Getting started", href: "https://docs.lomi.test/guide.html" });
  assert.equal((await fetchPage("https://docs.lomi.test/missing.html"))?.status, 404);
  assert.equal(await fetchPage("https://nowhere.lomi.test/"), undefined, "a host without pages has no server");
});

test("a reference never issued is NOT_FOUND, one issued and retired is STALE_REFERENCE", async () => {
  const { snapshot, check } = await openedBrowser();
  const first = snapshot();
  const second = snapshot();
  check(targetOf(second, "Subscribe"));
  assert.throws(
    () => check({ ...targetOf(second, "Subscribe"), elementRef: targetOf(first, "Subscribe").elementRef }),
    refusedWith("STALE_REFERENCE", "elementRef"),
  );
  assert.throws(() => check({ ...targetOf(second, "Subscribe"), elementRef: "el-never" }), refusedWith("NOT_FOUND", "elementRef"));
  assert.throws(() => check({ ...targetOf(second, "Subscribe"), snapshotId: "snap-never" }), refusedWith("NOT_FOUND", "snapshotId"));
  assert.throws(() => check({ ...targetOf(second, "Subscribe"), navigationId: "nav-never" }), refusedWith("NOT_FOUND", "navigationId"));
});

test("an element named with another frame's frameId is refused", async () => {
  const { snapshot, check } = await openedBrowser();
  const snap = snapshot();
  assert.throws(() => check({ ...targetOf(snap, "Helpful"), frameId: targetOf(snap, "Subscribe").frameId }), refusedWith("NOT_FOUND", "frameId"));
  check(targetOf(snap, "Helpful"));
});

test("a runtime restart retires the document's frames and restores its page as a new navigation", async () => {
  const { sim, panelId, snapshot, check } = await openedBrowser();
  const before = snapshot();
  const { browserGeneration } = sim.restartRuntime(panelId) as { browserGeneration: string };
  await sim.idle();
  assert.throws(() => check(targetOf(before, "Subscribe")), refusedWith("STALE_RUNTIME", "browserGeneration"));
  const { pairingId } = sim.pairing("agent");
  const after = sim.observeBrowserSnapshot(pairingId, { kind: "browser-snapshot", workspaceId: "ws-alpha", panelId, browserGeneration });
  assert.equal(after.url, before.url);
  assert.notEqual(after.navigationId, before.navigationId);
  assert.throws(() => check({ ...targetOf(after, "Subscribe"), frameId: before.frames[0]!.frameId }), refusedWith("STALE_REFERENCE", "frameId"));
});

test("a navigation that a later one overtakes does not replace the page", async () => {
  const { sim, pairingId, panelId, browserGeneration } = await openedBrowser();
  const navigate = (operationId: string, url: string) =>
    sim.dispatch({
      permit: permit(operationId),
      pairingId,
      tool: "lomi_browser_navigate",
      workspaceId: "ws-alpha",
      projectId: "proj-app",
      args: { ...identity, requestKey: operationId, panelId, browserGeneration, url },
    });
  navigate("op-slow", "https://docs.lomi.test/guide.html");
  navigate("op-fast", "https://forms.lomi.test/upload.html");
  await sim.idle();
  const slow = sim.status("op-slow");
  assert.equal(slow.phase === "settled" && slow.state, "failed");
  const [panel] = sim.snapshot().workspaces[0]!.panels;
  assert.equal(panel?.kind === "browser" ? panel.url : undefined, "https://forms.lomi.test/upload.html");
});

test("over real HTTP, a page load has finished before the bridge answers the next request", async () => {
  const server = await serveHandlers(simulatorHandlers(new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 3)));
  try {
    const native = new NativeClient(server.url);
    const { pairingId } = await native.pairing("agent", "broker-x");
    const target = {
      pairingId,
      tool: "lomi_browser_open",
      workspaceId: "ws-alpha",
      projectId: "proj-app",
      args: { ...identity, url: "https://docs.lomi.test/", expectedRevision: "7" },
    };
    assert.deepEqual(await native.dispatch(target, permit("op-1")), { phase: "running", effectState: "partial" }, "admitted while the page loads");
    const settled = await native.status("op-1");
    assert.equal(settled.phase === "settled" && settled.state, "succeeded");
  } finally {
    await server.close();
  }
});
