import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { brokerRequestInit } from "../../harness/connection/broker-request.js";
import { systemTimers } from "../../protocol/ports.js";
import { VirtualTimers } from "../../protocol/virtual-timers.js";
import { serveHttp, type HttpEndpoint, type HttpOptions } from "../../reference-broker/http-endpoint.js";
import { startBroker } from "../support/in-process-broker.js";

let running: Awaited<ReturnType<typeof startBroker>>;
const endpoints: HttpEndpoint[] = [];
before(async () => {
  running = await startBroker(7);
});
after(async () => {
  for (const e of endpoints) await e.close();
  running.cleanup();
});

async function endpoint(options: Partial<HttpOptions> = {}) {
  const e = await serveHttp(running.broker, { port: 0, timers: systemTimers, ...options });
  endpoints.push(e);
  return e;
}

interface Answer {
  status: number;
  sessionId: string | undefined;
  body: { result?: unknown; error?: { code: number; message: string } };
}

/** A raw POST, so Host, Origin and Authorization are exactly what the test says. */
function post(url: string, message: unknown, headers: Record<string, string> = {}, rawBody?: string): Promise<Answer> {
  const target = new URL(url);
  const body = rawBody ?? JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, sessionId: res.headers["mcp-session-id"] as string | undefined, body: text ? JSON.parse(text) : {} }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
};
const call = (name: string, args: string) => `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

test("a Host that is not this loopback endpoint, and a foreign or null Origin, are refused before any session exists", async () => {
  const e = await endpoint();
  const port = new URL(e.url).port;
  assert.equal((await post(e.url, INITIALIZE, { host: "evil.example" })).status, 403);
  assert.equal((await post(e.url, INITIALIZE, { host: `evil.example:${port}` })).status, 403);
  assert.equal((await post(e.url, INITIALIZE, { origin: "http://evil.example" })).status, 403);
  assert.equal((await post(e.url, INITIALIZE, { origin: "null" })).status, 403);
  assert.equal((await post(e.url, INITIALIZE, { origin: `http://127.0.0.1:${Number(port) + 1}` })).status, 403);
  assert.equal(e.sessionCount(), 0);
  assert.equal((await post(e.url, INITIALIZE, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status, 200);
  assert.equal((await post(e.url, INITIALIZE)).status, 200, "a client without Origin (not a browser) is served");
  assert.equal(e.sessionCount(), 2);
});

test("with a token, a request without it or with another one is 401; the harness's token gets through", async () => {
  const e = await endpoint({ token: "s3cret-token" });
  assert.equal((await post(e.url, INITIALIZE)).status, 401);
  assert.equal((await post(e.url, INITIALIZE, { authorization: "Bearer s3cret-tokeN" })).status, 401);
  assert.equal((await post(e.url, INITIALIZE, { authorization: "Bearer s3cret-token" })).status, 200);
  const saved = process.env.LOMI_BROKER_TOKEN;
  process.env.LOMI_BROKER_TOKEN = "s3cret-token";
  try {
    const harnessHeaders = brokerRequestInit()?.headers as Record<string, string>;
    assert.equal((await post(e.url, INITIALIZE, harnessHeaders)).status, 200);
  } finally {
    if (saved === undefined) delete process.env.LOMI_BROKER_TOKEN;
    else process.env.LOMI_BROKER_TOKEN = saved;
  }
});

test("binding beyond loopback without a token is refused", async () => {
  await assert.rejects(serveHttp(running.broker, { port: 0, host: "0.0.0.0", timers: systemTimers }), /needs a bearer token/);
});

test("session IDs are random UUIDs, not derived from the broker's replay seed", async () => {
  const e = await endpoint();
  const ids = [(await post(e.url, INITIALIZE)).sessionId, (await post(e.url, INITIALIZE)).sessionId];
  for (const id of ids) assert.match(id ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(ids[0], ids[1]);
});

test("idle sessions expire on the endpoint's own timer, and the session table is bounded", async () => {
  const timers = new VirtualTimers();
  const e = await endpoint({ idleSessionMs: 60_000, maxSessions: 2, timers });
  const first = await post(e.url, INITIALIZE);
  await Promise.all(timers.advanceTo(30_000)); // sweeps every 15 s: none is idle for a minute yet
  const second = await post(e.url, INITIALIZE);
  const third = await post(e.url, INITIALIZE);
  assert.equal(third.status, 503);
  assert.match(third.body.error?.message ?? "", /Too many MCP sessions \(2\)/);
  await Promise.all(timers.advanceTo(61_000)); // the sweep at 60 s: the first is idle past the limit; the second is not
  assert.equal(e.sessionCount(), 1);
  assert.equal(await e.expireIdle(), 0);
  const gone = await post(e.url, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": first.sessionId!, "mcp-protocol-version": "2025-06-18" });
  assert.equal(gone.status, 404);
  const alive = await post(e.url, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": second.sessionId!, "mcp-protocol-version": "2025-06-18" });
  assert.equal(alive.status, 200);
  assert.equal((await post(e.url, INITIALIZE)).status, 200, "a freed place takes a new session");
});

test("over HTTP too, a __proto__ key is judged as sent, a body past 4 MiB is 413 and one that is not JSON -32700", async () => {
  const e = await endpoint();
  const { sessionId } = await post(e.url, INITIALIZE);
  const headers = { "mcp-session-id": sessionId!, "mcp-protocol-version": "2025-06-18" };
  const proto = await post(e.url, undefined, headers, call("lomi_panel_list", '{"workspaceId":"ws-alpha","__proto__":{"x":1}}'));
  const envelope = (proto.body.result as { structuredContent: { code: string; details: { field: string } } }).structuredContent;
  assert.deepEqual([envelope.code, envelope.details.field], ["INVALID_ARGUMENT", "__proto__"]);
  const huge = await post(e.url, undefined, headers, call("lomi_panel_list", `{"workspaceId":"${"w".repeat(5 * 1024 * 1024)}"}`));
  assert.equal(huge.status, 413);
  const garbage = await post(e.url, undefined, headers, "{not json");
  assert.deepEqual([garbage.status, garbage.body.error?.code], [400, -32700]);
});
