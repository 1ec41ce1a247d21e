import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { inProcessBroker, ownObject } from "../support/in-process-broker.js";

let broker: Awaited<ReturnType<typeof inProcessBroker>>;
before(async () => {
  broker = await inProcessBroker();
});
after(() => broker.close());

async function connected() {
  const reply = await broker.call("lomi_connect", { workspaceId: "ws-alpha" });
  assert.equal(reply.structuredContent.status, "ok");
  return (reply.structuredContent as { data: { retryEpoch: string } }).data.retryEpoch;
}

function refusal(reply: { structuredContent: unknown; isError: boolean }) {
  assert.equal(reply.isError, true);
  const envelope = reply.structuredContent as { status: string; code: string; details?: { field?: string } };
  assert.equal(envelope.status, "error");
  return envelope;
}

test("a __proto__, constructor or prototype key is an unknown field and dispatches nothing", async () => {
  const retryEpoch = await connected();
  const before = broker.sim.ledgerEntries().length;
  for (const key of ["__proto__", "constructor", "prototype"]) {
    const args = ownObject([
      ["workspaceId", "ws-alpha"],
      ["retryEpoch", retryEpoch],
      ["requestKey", `close-${key}`],
      [key, { force: true }],
    ]);
    const envelope = refusal(await broker.call("lomi_workspace_close", args));
    assert.equal(envelope.code, "INVALID_ARGUMENT");
    assert.equal(envelope.details?.field, key);
  }
  assert.equal(broker.sim.ledgerEntries().length, before, "nothing reached Lomi");
});

test("arguments that are not an object get the typed envelope, not a JSON-RPC error", async () => {
  for (const args of [[1, 2], "ws-alpha", 7, true, null]) {
    const envelope = refusal(await broker.call("lomi_panel_list", args));
    assert.equal(envelope.code, "INVALID_ARGUMENT");
    assert.equal(envelope.details?.field, "arguments");
  }
});

test("a 1 MiB unknown key comes back as a bounded excerpt", async () => {
  const key = "k".repeat(1024 * 1024);
  const reply = await broker.call(
    "lomi_panel_list",
    ownObject([
      ["workspaceId", "ws-alpha"],
      [key, 1],
    ]),
  );
  refusal(reply);
  assert.ok(JSON.stringify(reply).length < 2048, `the reply is ${JSON.stringify(reply).length} characters`);
});

test("an unknown tool name is quoted as a bounded excerpt", async () => {
  const reply = await broker.call("x".repeat(100_000), {});
  assert.equal(refusal(reply).code, "UNKNOWN_TOOL");
  assert.ok(JSON.stringify(reply).length < 2048);
});

test("the broker still serves after refusals", async () => {
  const reply = await broker.call("lomi_workspace_list", {});
  assert.equal(reply.structuredContent.status, "ok");
});
