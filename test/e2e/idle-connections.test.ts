import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { freePort } from "../../harness/adapters/free-port.js";
import { withHttpBroker } from "../support/runs.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stalled", version: "1" } },
};
/** Past the idle close Node's defaults make (advertised 5 s, closed at 6 s), which raced such a client. */
const STALL_MS = 8000;

/** Blocks this event loop without using CPU, as a loaded machine delays a harness's timers. */
function stallEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

test("a harness whose event loop stalls past the advertised keep-alive still gets tools/list over the connection it kept", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-idle-"));
  await withHttpBroker(["bin/lomi-broker.js"], await freePort(), dir, async (url) => {
    const init = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(INITIALIZE) });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get("connection"), "keep-alive");
    assert.equal(init.headers.get("keep-alive"), "timeout=5");
    await init.text();
    const session = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-06-18" };
    const initialized = await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    assert.equal(initialized.status, 202);
    await initialized.text();
    // undici's timer that retires the idle socket cannot run while the loop is blocked, so this
    // request goes out on the kept socket: it must still be open at the broker.
    stallEventLoop(STALL_MS);
    const list = await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) });
    assert.equal(list.status, 200);
    const body = (await list.json()) as { result?: { tools: unknown[] } };
    assert.ok((body.result?.tools.length ?? 0) > 0, "tools/list answered with the tools");
  });
});
