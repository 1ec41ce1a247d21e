import assert from "node:assert/strict";
import { after, test } from "node:test";
import { CONTROL_PATHS } from "../../protocol/control-api.js";
import { NATIVE_PATHS } from "../../protocol/native-bridge.js";
import { simulatorHandlers } from "../../simulator/handlers.js";
import { SimulatorHost } from "../../simulator/host.js";
import { serveHandlers, serveRoutes } from "../../simulator/http-server.js";
import { simulatorRoutes } from "../../simulator/routes.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";

after(stopRouting);

type Answer = { status: number; body: unknown } | "network failure";

/** The same request to the same simulated Lomi, served over HTTP by msw, over HTTP by node:http alone, and called in-process. */
async function both(path: string, init: { method: string; body?: string }, prefix = "") {
  const answers: Answer[] = [];
  for (const serving of ["msw", "node:http", "in-process"] as const) {
    const host = new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 3);
    const server =
      serving === "msw" ? await serveHandlers(simulatorHandlers(host)) : serving === "node:http" ? await serveRoutes(simulatorRoutes(host)) : undefined;
    if (!server) routeInProcess(host);
    const call = server ? (url: string, i: typeof init) => fetch(url, i) : inProcessFetch;
    const base = (server?.url ?? IN_PROCESS_ORIGIN) + prefix;
    try {
      const send = (p: string, b: unknown) => call(base + p, { method: "POST", body: JSON.stringify(b) });
      const { pairingId } = (await (await send(NATIVE_PATHS.pairing, { clientName: "agent", brokerInstanceId: "broker-1" })).json()) as { pairingId: string };
      await send(CONTROL_PATHS.faults, { action: "lose-reply", tool: "lomi_terminal_create" });
      const reply = await call(base + path, { ...init, body: init.body?.replace("PAIRING", pairingId) });
      answers.push({ status: reply.status, body: await reply.json() });
    } catch (error) {
      assert.equal((error as Error).message, "fetch failed");
      answers.push("network failure");
    } finally {
      await server?.close();
    }
  }
  assert.deepEqual(answers[1], answers[0], "node:http serves the routes as msw does");
  assert.deepEqual(answers[2], answers[0], "in-process answers as over HTTP");
  return answers[0]!;
}

const dispatch = (operationId: string) =>
  JSON.stringify({
    permit: { operationId, receiptKey: "a".repeat(64), fingerprint: "b".repeat(64) },
    pairingId: "PAIRING",
    tool: "lomi_terminal_create",
    workspaceId: "ws-alpha",
    projectId: "proj-app",
    args: { workspaceId: "ws-alpha", cwdRelative: "", title: "T", expectedRevision: "7", retryEpoch: "epoch-12345678", requestKey: "k" },
  });

test("in-process, the simulated Lomi answers every kind of request as it does over HTTP", async () => {
  const clock = await both(NATIVE_PATHS.clock, { method: "POST", body: "{}" });
  assert.equal(clock !== "network failure" && clock.status, 200);
  assert.deepEqual(await both(NATIVE_PATHS.clock, { method: "POST", body: "{not json" }), {
    status: 400,
    body: { error: { code: "INVALID_ARGUMENT", message: "The body is not JSON." } },
  });
  const unknownField = await both(NATIVE_PATHS.clock, { method: "POST", body: '{"extra":1}' });
  assert.equal(unknownField !== "network failure" && unknownField.status, 400);
  const ledger = await both(CONTROL_PATHS.ledger, { method: "GET" });
  assert.equal(ledger !== "network failure" && ledger.status, 200);
  assert.equal(await both(NATIVE_PATHS.dispatch, { method: "POST", body: dispatch("op-1") }), "network failure", "an armed lost reply drops the connection");
});

test("a path a proxy prefixed still reaches its route; a path no route has is 404 over HTTP and a network failure in-process", async () => {
  const prefixed = await both(NATIVE_PATHS.clock, { method: "POST", body: "{}" }, "/lomi");
  assert.equal(prefixed !== "network failure" && prefixed.status, 200);
  const host = new SimulatorHost(readWorldFile(), 1);
  for (const server of [await serveHandlers(simulatorHandlers(host)), await serveRoutes(simulatorRoutes(host))]) {
    try {
      assert.equal((await fetch(`${server.url}/native/v1/nothing`, { method: "POST", body: "{}" })).status, 404);
      assert.equal((await fetch(`${server.url}${NATIVE_PATHS.clock}`, { method: "GET" })).status, 404, "the clock is a POST");
    } finally {
      await server.close();
    }
  }
  routeInProcess(host);
  await assert.rejects(inProcessFetch(`${IN_PROCESS_ORIGIN}/native/v1/nothing`, { method: "POST", body: "{}" }), /no simulated Lomi answers POST/);
});

test("an in-process reply is the caller's own copy: changing it changes nothing the simulated Lomi holds", async () => {
  routeInProcess(new SimulatorHost(readWorldFile(), 1));
  const read = async () =>
    (await (await inProcessFetch(IN_PROCESS_ORIGIN + CONTROL_PATHS.snapshot, { method: "GET" })).json()) as { workspaces: Array<{ id: string }> };
  const first = await read();
  first.workspaces.length = 0;
  assert.ok((await read()).workspaces.length > 0);
});
