import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { ReceiptStore, type StoredReceipt } from "../../reference-broker/receipt-store.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "lomi-store-test-"));
  file = path.join(dir, "receipts.sqlite");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function receipt(n: number, overrides: Partial<StoredReceipt> = {}): StoredReceipt {
  return {
    operationId: `op-${n}`,
    receiptKey: `${"k".repeat(63)}${n}`,
    fingerprint: "f".repeat(64),
    pairingId: "pair-1",
    retryEpoch: "epoch-1",
    projectId: "proj",
    workspaceId: "ws",
    tool: "lomi_terminal_create",
    requestKey: `key-${n}`,
    serializeKey: "workspaceId:ws",
    args: { n },
    state: "queued",
    effectState: "none",
    result: null,
    error: null,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

test("a reservation is returned, not duplicated, for the same key", () => {
  const { store } = ReceiptStore.open(file, 0);
  assert.equal(store.reserve(receipt(1)).inserted, true);
  const again = store.reserve({ ...receipt(1), operationId: "op-other" });
  assert.equal(again.inserted, false);
  assert.equal(again.receipt.operationId, "op-1");
  assert.equal(store.receiptCount(), 1);
  store.close();
});

test("transitions are compare-and-set: a stale writer loses, an illegal move is refused", () => {
  const { store } = ReceiptStore.open(file, 0);
  const { receipt: queued } = store.reserve(receipt(1));
  const running = store.transition(queued, "running", {}, 2000);
  assert.equal(running?.state, "running");
  assert.equal(store.transition(queued, "cancelled", {}, 2001), undefined, "a writer that read queued must lose");
  const done = store.transition(running!, "succeeded", { effectState: "complete" }, 2002)!;
  assert.equal(store.transition(done, "failed", {}, 2003), undefined, "settled is final");
  assert.equal(store.byId("op-1")?.state, "succeeded");
  store.close();
});

test("reopening turns every unfinished operation into outcome_unknown and keeps settled ones", () => {
  const first = ReceiptStore.open(file, 0).store;
  first.reserve(receipt(1));
  const r2 = first.reserve(receipt(2)).receipt;
  first.transition(first.transition(r2, "running", {}, 1)!, "succeeded", { effectState: "complete", result: { ok: true } }, 2);
  const r3 = first.reserve(receipt(3)).receipt;
  first.transition(r3, "running", { effectState: "partial" }, 3);
  first.close();

  const { store, recovered } = ReceiptStore.open(file, 99);
  assert.equal(recovered, 2);
  assert.deepEqual([store.byId("op-1")?.state, store.byId("op-1")?.effectState], ["outcome_unknown", "unknown"]);
  assert.deepEqual([store.byId("op-3")?.state, store.byId("op-3")?.effectState], ["outcome_unknown", "unknown"]);
  assert.deepEqual(store.byId("op-2")?.result, { ok: true });
  assert.equal(store.byId("op-2")?.state, "succeeded");
  const events = store.events("pair-1", "ws", 0, 100).events.filter((e) => e.operationId === "op-3").map((e) => e.state);
  assert.deepEqual(events, ["queued", "running", "outcome_unknown"]);
  store.close();
});

test("a second broker instance cannot open a store in use", () => {
  const { store } = ReceiptStore.open(file, 0);
  assert.throws(
    () => ReceiptStore.open(file, 0),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE" && /in use by another broker/.test(e.message),
  );
  store.close();
  ReceiptStore.open(file, 0).store.close();
});

test("an unwritable store location is a typed STORE_UNAVAILABLE", () => {
  assert.throws(
    () => ReceiptStore.open(path.join(dir, "missing-dir", "x.sqlite"), 0),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE",
  );
});

test("events page by cursor, each transition once and in order", () => {
  const { store } = ReceiptStore.open(file, 0);
  for (let i = 1; i <= 3; i++) store.reserve(receipt(i));
  const page1 = store.events("pair-1", "ws", 0, 2);
  assert.deepEqual(page1.events.map((e) => e.operationId), ["op-1", "op-2"]);
  assert.equal(page1.hasMore, true);
  const page2 = store.events("pair-1", "ws", page1.events.at(-1)!.sequence, 2);
  assert.deepEqual(page2.events.map((e) => e.operationId), ["op-3"]);
  assert.equal(page2.hasMore, false);
  assert.deepEqual(store.events("pair-2", "ws", 0, 10).events, [], "another pairing sees nothing");
  store.close();
});
