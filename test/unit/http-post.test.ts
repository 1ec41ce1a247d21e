import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { http as mswHttp, HttpResponse } from "msw";
import { serveHandlers } from "../../simulator/http-server.js";
import { httpPost } from "../../reference-broker/http-post.js";

const post = (url: string, body: unknown) => httpPost(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("the broker's native HTTP client sends the JSON body and keeps its connection alive between calls", async () => {
  const CALLS = 4;
  const server = await serveHandlers([mswHttp.post("*/echo", async ({ request }) => HttpResponse.json({ got: await request.json() }))]);
  let connections = 0;
  const count = () => void connections++;
  diagnostics.subscribe("net.client.socket", count);
  try {
    for (let i = 0; i < CALLS; i++) {
      const reply = await post(`${server.url}/echo`, { i, text: "é" });
      assert.equal(reply.ok, true);
      assert.equal(reply.status, 200);
      assert.deepEqual(await reply.json(), { got: { i, text: "é" } });
    }
    assert.equal(connections, 1, `${CALLS} calls opened ${connections} connections`);
  } finally {
    diagnostics.unsubscribe("net.client.socket", count);
    await server.close();
  }
});

test("the broker's native HTTP client passes an error status and its body on, and rejects when nothing answers", async () => {
  const server = await serveHandlers([mswHttp.post("*/refuse", () => HttpResponse.json({ error: { code: "NOT_FOUND" } }, { status: 404 }))]);
  try {
    const reply = await post(`${server.url}/refuse`, {});
    assert.equal(reply.ok, false);
    assert.equal(reply.status, 404);
    assert.deepEqual(await reply.json(), { error: { code: "NOT_FOUND" } });
  } finally {
    await server.close();
  }
  const gone = await serveHandlers([]);
  await gone.close();
  await assert.rejects(post(`${gone.url}/refuse`, {}), /ECONNREFUSED/);
});

test("the broker's native HTTP client rejects a reply cut off mid-body, as no reply", async () => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"now":');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await assert.rejects(post(`http://127.0.0.1:${port}/clock`, {}), /closed before the reply was complete|aborted/);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
