import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { systemClock } from "../../protocol/ports.js";
import { buildToolResult, ok } from "../../protocol/envelope.js";
import { Broker, type BrokerParts } from "../../reference-broker/broker.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { MUTANTS } from "../../mutants/index.js";
import { errorCodeOf, sessionRewritingPicked, sessionRewritingReplies, sessionWrappingPicked } from "../../mutants/rewriting-session.js";
import { picksOf, type SeenCall } from "../../mutants/picks.js";
import { onReopening, reopensOnly } from "../../mutants/doctored-store.js";
import { storeReachedBy, storeWrappedBy } from "../../mutants/wrapped-store.js";
import { openSqliteStore } from "../../reference-broker/sqlite-receipt-store.js";

after(stopRouting);

/** A session of the reference broker in this process, made by `parts`, on a store of its own or `storePath`. */
async function sessionOf(parts: BrokerParts, storePath = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-picking-")), "receipts.sqlite")) {
  routeInProcess(new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 1));
  const broker = await Broker.start({ nativeUrl: IN_PROCESS_ORIGIN, storePath, seed: 1, hostClock: systemClock, fetch: inProcessFetch, parts });
  return { broker, session: broker.newSession(() => "agent") };
}

test("a picking session rewrites only the replies it picks; every other call is the reference broker's, its rewrite never called", async () => {
  const rewritten: string[] = [];
  const session = sessionRewritingPicked(
    ({ reply }) => errorCodeOf(reply) === "NOT_FOUND",
    (_reply, name) => {
      rewritten.push(name);
      return buildToolResult(ok({ picked: true }));
    },
  );
  const { broker, session: s } = await sessionOf({ session });
  try {
    const listed = await s.call("lomi_workspace_list", {});
    assert.equal(listed.structuredContent.status, "ok");
    assert.deepEqual(rewritten, [], "an ok reply is not picked");
    const missing = await s.call("lomi_operation_get", { operationId: "op-nowhere" });
    assert.deepEqual(missing.structuredContent, ok({ picked: true }));
    assert.deepEqual(rewritten, ["lomi_operation_get"]);
  } finally {
    broker.close();
  }
});

test("a picking session tells teeth which recorded calls it acts on; a reply that never came may have been picked", () => {
  const session = sessionRewritingPicked(
    ({ tool }) => tool === "lomi_connect",
    (reply) => reply,
  );
  const call = (tool: string, reply: SeenCall["reply"]): SeenCall => ({ tool, args: {}, reply });
  const answered = { structuredContent: ok({}), isError: false };
  assert.equal(session.picks(call("lomi_connect", answered)), true);
  assert.equal(session.picks(call("lomi_workspace_list", answered)), false);
  assert.equal(session.picks(call("lomi_workspace_list", undefined)), true, "a lost reply: what the session did with it is unknown");
  const byArgs = sessionWrappingPicked(
    ({ args }) => Object.keys(args).includes("__proto__"),
    ({ call: make }, name, args) => make(name, args),
  );
  assert.equal(byArgs.picks({ tool: "lomi_connect", args: JSON.parse('{"__proto__": 1}') as Record<string, unknown>, reply: undefined }), true);
  assert.equal(byArgs.picks({ tool: "lomi_connect", args: {}, reply: undefined }), false, "picked by what it sends: a lost reply changes nothing");
});

test("a session tells where it acts only when it picks: one that sees every call may act anywhere", () => {
  assert.ok(
    picksOf(
      sessionRewritingPicked(
        () => true,
        (reply) => reply,
      ),
    ),
  );
  assert.equal(picksOf(sessionRewritingReplies((reply) => reply)), undefined);
  assert.ok(
    MUTANTS.some((m) => m.parts.session !== undefined && picksOf(m.parts.session) !== undefined),
    "the shipped mutants include picking ones",
  );
});

test("a store part says which calls reach its defect only when declared so: one that does not may act on any call", () => {
  const openStore = storeReachedBy(
    ({ tool }) => tool === "lomi_events_read",
    storeWrappedBy((inner) => inner),
  );
  const call = (tool: string): SeenCall => ({ tool, args: {}, reply: undefined });
  assert.equal(picksOf(openStore)?.(call("lomi_events_read")), true);
  assert.equal(picksOf(openStore)?.(call("lomi_operation_get")), false);
  assert.equal(picksOf(storeWrappedBy((inner) => inner)), undefined);
  assert.ok(
    MUTANTS.some((m) => m.parts.openStore !== undefined && picksOf(m.parts.openStore) !== undefined),
    "the shipped mutants include store parts that say which calls reach them",
  );
});

test("a store part made for reopenings opens a new store as the reference broker does, its own part not even called", async () => {
  let called = 0;
  const openStore = onReopening((file, now, _native, options) => {
    called++;
    return openSqliteStore(file, now, options);
  });
  assert.equal(reopensOnly(openStore), true);
  assert.equal(
    reopensOnly(() => undefined as never),
    false,
  );
  const storePath = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-reopening-")), "receipts.sqlite");
  for (let start = 0; start < 2; start++) {
    const { broker } = await sessionOf({ openStore }, storePath);
    broker.close();
  }
  assert.equal(called, 1, "called at the restart's reopening only");
});
