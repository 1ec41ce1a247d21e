import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { MemoryReceiptStore } from "../../reference-broker/memory-receipt-store.js";
import type { ReceiptStore, StoredEpoch, StoredReceipt, StoreLimits } from "../../reference-broker/receipt-store.js";
import { openSqliteStore } from "../../reference-broker/sqlite-receipt-store.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "lomi-store-test-"));
  file = path.join(dir, "receipts.sqlite");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function retryEpoch(n: number, overrides: Partial<StoredEpoch> = {}): StoredEpoch {
  return {
    retryEpoch: `epoch-${n}`,
    pairingId: "pair-1",
    brokerInstanceId: "b",
    connectionId: "c",
    workspaceId: "ws",
    projectIds: ["proj"],
    issuedAt: 0,
    expiresAt: 1,
    ...overrides,
  };
}

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

const reserve = (store: ReceiptStore, r: StoredReceipt, claim = false) => {
  const [outcome] = store.reserveAll([{ receipt: r, claim }]);
  if (!outcome || "refused" in outcome) throw outcome?.refused ?? new Error("no outcome");
  return outcome;
};

// The same rules hold for the SQLite store and for the in-memory one the engine's unit tests use.
const STORES: Array<[string, (limits?: StoreLimits) => ReceiptStore]> = [
  ["sqlite", (limits) => openSqliteStore(file, 0, { limits }).store],
  ["memory", (limits) => new MemoryReceiptStore(limits)],
];

for (const [kind, open] of STORES) {
  test(`${kind}: a reservation is returned, not duplicated, for the same key`, () => {
    const store = open();
    assert.equal(reserve(store, receipt(1)).inserted, true);
    const again = reserve(store, { ...receipt(1), operationId: "op-other" });
    assert.equal(again.inserted, false);
    assert.equal(again.receipt.operationId, "op-1");
    assert.equal(store.status(0).receipts.count, 1);
    store.close();
  });

  test(`${kind}: transitions are compare-and-set: a stale writer loses, an illegal move is refused`, () => {
    const store = open();
    const { receipt: queued } = reserve(store, receipt(1));
    const running = store.transition(queued, "running", {}, 2000);
    assert.equal(running?.state, "running");
    assert.equal(store.transition(queued, "cancelled", {}, 2001), undefined, "a writer that read queued must lose");
    const done = store.transition(running!, "succeeded", { effectState: "complete" }, 2002)!;
    assert.equal(store.transition(done, "failed", {}, 2003), undefined, "settled is final");
    assert.equal(store.byId("op-1")?.state, "succeeded");
    store.close();
  });

  test(`${kind}: one batch of settlement chains: each step a compare-and-set on the one before, a stale chain answered with the stored receipt`, () => {
    const store = open();
    const [a, b, c] = [1, 2, 3].map((n) => reserve(store, receipt(n, { serializeKey: `t${n}` })).receipt);
    const stale = store.transition(c!, "running", {}, 1500)!;
    const settle = { to: "succeeded" as const, fields: { effectState: "complete" as const, result: { ok: true } } };
    const after = store.transitionAll([
      { current: a!, steps: [{ to: "running", fields: {} }, settle], now: 2000 },
      { current: b!, steps: [{ to: "awaiting_user", fields: {} }], now: 2000 },
      { current: c!, steps: [{ to: "running", fields: {} }, settle], now: 2000 },
    ]);
    assert.deepEqual(
      after.map((r) => r.state),
      ["succeeded", "awaiting_user", "running"],
    );
    assert.deepEqual(after[2], stale, "c moved under the chain: its steps lose and it is answered as stored");
    assert.deepEqual(after[0]!.result, { ok: true });
    assert.deepEqual(
      store
        .events("pair-1", "ws", 0, 100)
        .events.filter((e) => e.operationId === "op-1")
        .map((e) => e.state),
      ["queued", "running", "succeeded"],
    );
    store.close();
  });

  test(`${kind}: one batch of reservations: each claimed only with nothing ahead on its target, one past the limit refused alone`, () => {
    const store = open({ receipts: 3, epochs: 3 });
    const outcomes = store.reserveAll([
      { receipt: receipt(1), claim: true },
      { receipt: receipt(2), claim: true }, // same target as op-1: waits queued
      { receipt: receipt(3, { serializeKey: "terminalSessionId:t2" }), claim: true },
      { receipt: receipt(4, { serializeKey: "terminalSessionId:t3" }), claim: true },
    ]);
    assert.deepEqual(
      outcomes.map((o) => ("refused" in o ? o.refused.code : o.receipt.state)),
      ["running", "queued", "running", "RESOURCE_EXHAUSTED"],
    );
    assert.deepEqual(store.byId("op-1")?.state, "running", "the claim is stored, not only answered");
    assert.equal(store.byId("op-4"), undefined);
    const events = store.events("pair-1", "ws", 0, 100).events.filter((e) => e.operationId === "op-1");
    assert.deepEqual(
      events.map((e) => [e.previousState, e.state]),
      [
        [null, "queued"],
        ["queued", "running"],
      ],
      "the claim is its own event after queued",
    );
    store.close();
  });

  test(`${kind}: events page by cursor, each transition once and in order`, () => {
    const store = open();
    for (let i = 1; i <= 3; i++) reserve(store, receipt(i));
    const page1 = store.events("pair-1", "ws", 0, 2);
    assert.deepEqual(
      page1.events.map((e) => e.operationId),
      ["op-1", "op-2"],
    );
    assert.equal(page1.hasMore, true);
    const page2 = store.events("pair-1", "ws", page1.events.at(-1)!.sequence, 2);
    assert.deepEqual(
      page2.events.map((e) => e.operationId),
      ["op-3"],
    );
    assert.equal(page2.hasMore, false);
    assert.deepEqual(store.events("pair-2", "ws", 0, 10).events, [], "another pairing sees nothing");
    store.close();
  });

  test(`${kind}: the epoch limit is a parameter`, () => {
    const store = open({ receipts: 5, epochs: 1 });
    const epoch = (n: number) => retryEpoch(n, { expiresAt: 1 });
    // One batch (one write): the epoch past the limit is refused on its own, the first stands.
    const [first, second] = store.insertEpochs([epoch(1), epoch(2)]);
    assert.deepEqual(first, { recorded: true });
    assert.ok(
      second &&
        "refused" in second &&
        second.refused instanceof LomiError &&
        second.refused.code === "RESOURCE_EXHAUSTED" &&
        /holds 1 retry epochs/.test(second.refused.message),
    );
    assert.deepEqual(store.status(1).retryEpochs, { count: 1, limit: 1, expired: 1 });
    store.close();
  });
}

test("reopening turns every unfinished operation into outcome_unknown and keeps settled ones", () => {
  const first = openSqliteStore(file, 0).store;
  reserve(first, receipt(1));
  const r2 = reserve(first, receipt(2)).receipt;
  first.transition(first.transition(r2, "running", {}, 1)!, "succeeded", { effectState: "complete", result: { ok: true } }, 2);
  const r3 = reserve(first, receipt(3)).receipt;
  first.transition(r3, "running", { effectState: "partial" }, 3);
  first.close();

  const { store, recovered } = openSqliteStore(file, 99);
  assert.equal(recovered, 2);
  assert.deepEqual([store.byId("op-1")?.state, store.byId("op-1")?.effectState], ["outcome_unknown", "unknown"]);
  assert.deepEqual([store.byId("op-3")?.state, store.byId("op-3")?.effectState], ["outcome_unknown", "unknown"]);
  assert.deepEqual(store.byId("op-2")?.result, { ok: true });
  assert.equal(store.byId("op-2")?.state, "succeeded");
  const events = store
    .events("pair-1", "ws", 0, 100)
    .events.filter((e) => e.operationId === "op-3")
    .map((e) => e.state);
  assert.deepEqual(events, ["queued", "running", "outcome_unknown"]);
  store.close();
});

test("a process's second new store is new too: empty, opened once, with nothing of the store made before it", () => {
  // A process makes every new store after its first from that first one's bytes (sqlite-receipt-store.ts).
  const first = openSqliteStore(file, 0);
  reserve(first.store, receipt(1));
  first.store.close();
  const other = path.join(dir, "other.sqlite");
  const second = openSqliteStore(other, 0);
  assert.deepEqual([second.openings, second.recovered, second.store.byId("op-1")], [1, 0, undefined]);
  assert.equal(second.store.status(0).receipts.count, 0);
  reserve(second.store, receipt(2));
  second.store.close();
  const again = openSqliteStore(other, 5);
  assert.deepEqual([again.openings, again.recovered, again.store.byId("op-2")?.state], [2, 1, "outcome_unknown"]);
  again.store.close();
  // Nothing of its making is left beside it.
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes(".creating-")),
    [],
  );
});

test("the store's counts follow its committed writes: a batch that fails counts nothing, a reconciliation counts what it removed, a reopening counts the file", () => {
  const epoch = (n: number) => retryEpoch(n, { projectIds: [], expiresAt: 10 });
  const { store } = openSqliteStore(file, 0, { limits: { receipts: 3, epochs: 2 } });
  reserve(store, receipt(1));
  // A batch whose second insert breaks a constraint (the same operationId under another key) rolls back whole.
  assert.throws(
    () =>
      store.reserveAll([
        { receipt: receipt(2), claim: false },
        { receipt: { ...receipt(3), operationId: "op-1" }, claim: false },
      ]),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE",
  );
  assert.equal(store.status(0).receipts.count, 1);
  reserve(store, receipt(2));
  reserve(store, receipt(3));
  const [refused] = store.reserveAll([{ receipt: receipt(4), claim: false }]);
  assert.ok(refused && "refused" in refused && refused.refused.code === "RESOURCE_EXHAUSTED", "the limit counts the receipts the failed batch did not write");
  store.insertEpochs([epoch(1), epoch(2)]);
  assert.ok("refused" in store.insertEpochs([epoch(3)])[0]!);
  const settled = store.transition(store.transition(store.byId("op-1")!, "running", {}, 1)!, "succeeded", { effectState: "complete" }, 2)!;
  assert.equal(settled.state, "succeeded");
  // epoch-1 stays: the remaining receipts name it.
  assert.deepEqual(store.reconcile(100, 50, "pair-1", []), { receipts: 1, retryEpochs: 1, events: 3 });
  assert.deepEqual([store.status(100).receipts.count, store.status(100).retryEpochs.count], [2, 1]);
  assert.equal(reserve(store, receipt(4)).inserted, true, "the reconciliation made room");
  store.close();
  const again = openSqliteStore(file, 200, { limits: { receipts: 3, epochs: 2 } }).store;
  assert.deepEqual([again.status(200).receipts.count, again.status(200).retryEpochs.count], [3, 1]);
  again.close();
});

test("a second broker instance cannot open a store in use", () => {
  const { store } = openSqliteStore(file, 0);
  assert.throws(
    () => openSqliteStore(file, 0),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE" && /in use by another broker/.test(e.message),
  );
  store.close();
  openSqliteStore(file, 0).store.close();
});

test("an unwritable store location is a typed STORE_UNAVAILABLE", () => {
  assert.throws(
    () => openSqliteStore(path.join(dir, "missing-dir", "x.sqlite"), 0),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE",
  );
});
