import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { test } from "node:test";
import { http as mswHttp, HttpResponse } from "msw";
import { serveHandlers } from "../../simulator/http-server.js";

test("the simulator's native bridge keeps a broker's fetch connection alive: calls reuse connections", async () => {
  const CALLS = 4;
  const server = await serveHandlers([mswHttp.post("*/call", () => HttpResponse.json({ ok: true }))]);
  let connections = 0;
  const count = () => void connections++;
  diagnostics.subscribe("undici:client:connected", count);
  try {
    for (let i = 0; i < CALLS; i++) {
      const answer = await fetch(`${server.url}/call`, { method: "POST", body: "{}" });
      assert.equal(answer.status, 200);
      // undici reuses an idle connection for the advertised time less 1 s: timeout=1 meant never.
      assert.equal(answer.headers.get("keep-alive"), "timeout=5");
      await answer.text();
    }
    assert.ok(connections < CALLS, `${CALLS} calls opened ${connections} connections: none was reused`);
  } finally {
    diagnostics.unsubscribe("undici:client:connected", count);
    await server.close();
  }
});
