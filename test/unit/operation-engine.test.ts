import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { seededRandom } from "../../protocol/ports.js";
import { VirtualTimers } from "../../protocol/virtual-timers.js";
import type { InputOf } from "../../protocol/tool-contract.js";
import { terminalRun } from "../../protocol/tools/terminal.js";
import { REFERENCE_POLICY, type BrokerPolicy } from "../../reference-broker/broker-policy.js";
import { DelegatingReceiptStore } from "../../reference-broker/delegating-store.js";
import { FailingReservations } from "../../reference-broker/failing-reservations.js";
import { BrokerCrashed, FaultHooks, type FaultPoint } from "../../reference-broker/fault-hooks.js";
import { MemoryReceiptStore } from "../../reference-broker/memory-receipt-store.js";
import { OperationEngine } from "../../reference-broker/operation-engine.js";
import type { ReceiptStore, Reservation, TransitionChain } from "../../reference-broker/receipt-store.js";
import { FakeLomi } from "../support/fake-lomi.js";

const DAY = 24 * 3_600_000;
type RunArgs = InputOf<typeof terminalRun>;
const who = { pairingId: "pair-1", connectionId: "conn-1" };
const settled = {
  phase: "settled",
  state: "succeeded",
  effectState: "complete",
  result: { terminalSessionId: "term-1", processStarted: true, exitCode: 0 },
  error: null,
} as const;

function run(requestKey: string, extra: Partial<RunArgs> = {}): RunArgs {
  return { workspaceId: "ws", terminalSessionId: "term-1", command: "npm test", retryEpoch: "epoch-1", requestKey, ...extra };
}

/** An engine on the in-memory store and a scripted Lomi, with one epoch issued to `who`. */
function engine(options: { store?: ReceiptStore; faults?: FaultPoint[]; policy?: Partial<BrokerPolicy> } = {}) {
  const lomi = new FakeLomi();
  const store = options.store ?? new MemoryReceiptStore();
  store.insertEpochs([
    {
      retryEpoch: "epoch-1",
      pairingId: "pair-1",
      brokerInstanceId: "broker-1",
      connectionId: "conn-1",
      workspaceId: "ws",
      projectIds: ["proj"],
      issuedAt: 0,
      expiresAt: DAY,
    },
  ]);
  const hooks = new FaultHooks(options.faults ?? [], (point) => {
    throw new BrokerCrashed(point);
  });
  const timers = new VirtualTimers();
  const e = new OperationEngine(store, lomi, lomi, seededRandom(1), timers, "broker-1", hooks, { ...REFERENCE_POLICY, ...options.policy });
  return { engine: e, lomi, store, timers, admit: (args: RunArgs) => e.admit(who, terminalRun, args) };
}

const codeOf = (code: string) => (e: unknown) => e instanceof LomiError && e.code === code;

/** Counts the store's writes of reservations and of settlements, to see concurrent callers share one; fails the settlement writes it is told to. */
class CountingStore extends DelegatingReceiptStore {
  writes: number[] = [];
  settlementWrites: number[] = [];
  failSettlements = 0;
  override reserveAll(reservations: readonly Reservation[]) {
    this.writes.push(reservations.length);
    return super.reserveAll(reservations);
  }
  override transitionAll(chains: readonly TransitionChain[]) {
    if (this.failSettlements > 0 && this.failSettlements--)
      throw new LomiError("STORE_UNAVAILABLE", "The receipt store could not record the settlements: disk I/O error");
    this.settlementWrites.push(chains.length);
    return super.transitionAll(chains);
  }
}

test("an admission is durable and claimed before its one dispatch, and answers running: admission, not completion", async () => {
  const { admit, lomi, store } = engine();
  const { receipt, duplicate } = await admit(run("k1"));
  assert.equal(duplicate, false);
  assert.equal(receipt.state, "running");
  assert.equal(lomi.dispatched.length, 1);
  assert.equal(lomi.dispatched[0]!.permit.operationId, receipt.operationId);
  assert.deepEqual(
    store.events("pair-1", "ws", 0, 10).events.map((e) => e.state),
    ["queued", "running"],
  );
  assert.equal(lomi.clockReads, 0, "Lomi's time came with the check's reply");
});

test("without the time on the check's reply, the engine reads Lomi's clock once", async () => {
  const { admit, lomi } = engine();
  lomi.nowOnCheck = false;
  lomi.time = 5_000;
  const { receipt } = await admit(run("k1"));
  assert.equal(lomi.clockReads, 1);
  assert.equal(receipt.createdAt, 5_000);
});

test("a dispatch Lomi settles at once is recorded settled in the admission's reply", async () => {
  const { admit, lomi, store } = engine();
  lomi.dispatchAnswer = settled;
  const { receipt } = await admit(run("k1"));
  assert.deepEqual([receipt.state, receipt.effectState], ["succeeded", "complete"]);
  assert.deepEqual(store.byId(receipt.operationId), receipt);
});

test("a running operation settles when a read learns Lomi's settlement", async () => {
  const { engine: e, admit, lomi } = engine();
  const { receipt } = await admit(run("k1"));
  lomi.statusAnswer = settled;
  const after = await e.refresh(receipt);
  assert.deepEqual([after.state, after.result?.exitCode], ["succeeded", 0]);
  assert.equal(lomi.dispatched.length, 1);
});

test("a broker that settles in the background records Lomi's settlement once its delay has passed on its timers, never sooner", async () => {
  const { engine: e, admit, lomi, store, timers } = engine({ policy: { settleAfterMs: [300, 300] } });
  lomi.dispatchAnswer = settled;
  const { receipt } = await admit(run("k1"));
  assert.equal(receipt.state, "running", "Lomi settled it at once; the broker records it later");
  lomi.statusAnswer = settled;
  assert.deepEqual(timers.advanceTo(299), []);
  assert.equal((await e.refresh(receipt)).state, "running", "a read before the delay has passed learns the settlement but does not record it");
  const background = timers.advanceTo(300);
  assert.equal(background.length, 1, "the background read starts once the delay has passed");
  await Promise.all(background);
  assert.equal(store.byId(receipt.operationId)?.state, "succeeded", "recorded by the background read, with no read of the client's");
});

test("the same identity and arguments answer the prior operation and dispatch nothing", async () => {
  const { admit, lomi } = engine();
  const first = await admit(run("k1"));
  const again = await admit(run("k1"));
  assert.equal(again.duplicate, true);
  assert.equal(again.receipt.operationId, first.receipt.operationId);
  assert.equal(lomi.dispatched.length, 1);
});

test("changed arguments under a known identity are IDEMPOTENCY_CONFLICT and leave the original untouched", async () => {
  const { admit, lomi, store } = engine();
  const first = await admit(run("k1"));
  await assert.rejects(admit(run("k1", { command: "npm run build" })), codeOf("IDEMPOTENCY_CONFLICT"));
  assert.equal(lomi.dispatched.length, 1);
  assert.deepEqual(store.byId(first.receipt.operationId), first.receipt);
});

test("epochs: unknown, another connection's, another instance's and expired ones grant no submission", async () => {
  const { engine: e, admit, lomi, store } = engine();
  await assert.rejects(admit(run("k1", { retryEpoch: "epoch-unknown" })), codeOf("RETRY_EPOCH_INVALID"));
  await assert.rejects(e.admit({ ...who, connectionId: "conn-2" }, terminalRun, run("k2")), codeOf("RETRY_EPOCH_INVALID"));
  store.insertEpochs([
    {
      retryEpoch: "epoch-old",
      pairingId: "pair-1",
      brokerInstanceId: "broker-0",
      connectionId: "conn-1",
      workspaceId: "ws",
      projectIds: ["proj"],
      issuedAt: 0,
      expiresAt: DAY,
    },
  ]);
  await assert.rejects(admit(run("k3", { retryEpoch: "epoch-old" })), codeOf("RETRY_EPOCH_INVALID"));
  lomi.time = DAY;
  await assert.rejects(admit(run("k4")), codeOf("RETRY_EPOCH_EXPIRED"));
  lomi.checkRefusal = new LomiError("STALE_RUNTIME", "restarted");
  await assert.rejects(admit(run("k5")), codeOf("RETRY_EPOCH_EXPIRED"), "expiry answers before the validators, as when the clock was read first");
  assert.equal(lomi.dispatched.length, 0);
  assert.equal(store.status(0).receipts.count, 0);
});

test("a refusal by Lomi's validators reserves and dispatches nothing", async () => {
  const { admit, lomi, store } = engine();
  lomi.checkRefusal = new LomiError("STALE_RUNTIME", "restarted");
  await assert.rejects(admit(run("k1")), codeOf("STALE_RUNTIME"));
  assert.equal(lomi.dispatched.length, 0);
  assert.equal(store.status(0).receipts.count, 0);
});

test("a failed reservation dispatches nothing and leaves no receipt; the next admission goes through", async () => {
  const { admit, lomi, store } = engine({ store: new FailingReservations(new MemoryReceiptStore()) });
  await assert.rejects(admit(run("k1")), codeOf("STORE_UNAVAILABLE"));
  assert.equal(lomi.dispatched.length, 0);
  assert.equal(store.status(0).receipts.count, 0);
  await admit(run("k2"));
  assert.equal(lomi.dispatched.length, 1);
});

test("group commit: concurrent admissions share one write, each dispatched once after it", async () => {
  const counting = new CountingStore(new MemoryReceiptStore());
  const { admit, lomi } = engine({ store: counting });
  const admissions = await Promise.all([1, 2, 3, 4].map((n) => admit(run(`k${n}`, { terminalSessionId: `term-${n}` }))));
  assert.deepEqual(counting.writes, [4]);
  assert.equal(new Set(admissions.map((a) => a.receipt.operationId)).size, 4);
  assert.equal(lomi.dispatched.length, 4);
});

test("group commit: settlements Lomi answers in the same turn share one write, each reply saying settled after it", async () => {
  const counting = new CountingStore(new MemoryReceiptStore());
  const { admit, lomi } = engine({ store: counting });
  lomi.dispatchAnswer = settled;
  const admissions = await Promise.all([1, 2, 3, 4].map((n) => admit(run(`k${n}`, { terminalSessionId: `term-${n}` }))));
  assert.deepEqual(
    admissions.map((a) => a.receipt.state),
    ["succeeded", "succeeded", "succeeded", "succeeded"],
  );
  assert.deepEqual(counting.settlementWrites, [4]);
  for (const a of admissions) assert.equal(counting.byId(a.receipt.operationId)?.state, "succeeded", "what a reply says settled is in the store");
});

test("group commit: a failed settlement write fails the reads in it and loses nothing; the next read learns the settlement again", async () => {
  const counting = new CountingStore(new MemoryReceiptStore());
  const { engine: e, admit, lomi } = engine({ store: counting });
  const receipts = (await Promise.all([1, 2].map((n) => admit(run(`k${n}`, { terminalSessionId: `term-${n}` }))))).map((a) => a.receipt);
  lomi.statusAnswer = settled;
  counting.failSettlements = 1;
  const reads = await Promise.allSettled(receipts.map((r) => e.refresh(r)));
  assert.deepEqual(
    reads.map((o) => o.status === "rejected" && (o.reason as LomiError).code),
    ["STORE_UNAVAILABLE", "STORE_UNAVAILABLE"],
  );
  assert.deepEqual(
    receipts.map((r) => counting.byId(r.operationId)?.state),
    ["running", "running"],
    "nothing durable changed",
  );
  const again = await Promise.all(receipts.map((r) => e.refresh(r)));
  assert.deepEqual(
    again.map((r) => r.state),
    ["succeeded", "succeeded"],
  );
  assert.equal(lomi.dispatched.length, 2, "learning again dispatches nothing again");
});

test("group commit: a failed write fails every admission in it, with nothing dispatched", async () => {
  const { admit, lomi, store } = engine({ store: new FailingReservations(new MemoryReceiptStore()) });
  const outcomes = await Promise.allSettled([1, 2, 3].map((n) => admit(run(`k${n}`, { terminalSessionId: `term-${n}` }))));
  assert.deepEqual(
    outcomes.map((o) => o.status === "rejected" && (o.reason as LomiError).code),
    ["STORE_UNAVAILABLE", "STORE_UNAVAILABLE", "STORE_UNAVAILABLE"],
  );
  assert.equal(lomi.dispatched.length, 0);
  assert.equal(store.status(0).receipts.count, 0);
});

test("a second operation on the same target waits queued until the first settles", async () => {
  const { engine: e, admit, lomi } = engine();
  await admit(run("k1"));
  const second = await admit(run("k2"));
  assert.equal(second.receipt.state, "queued");
  assert.equal(lomi.dispatched.length, 1);
  lomi.statusAnswer = settled;
  const after = await e.refresh(second.receipt);
  assert.equal(after.state, "running");
  assert.equal(lomi.dispatched.length, 2);
});

test("recording running only when Lomi runs the work, a read while Lomi's answer is being written dispatches nothing again", async () => {
  const { engine: e, admit, lomi, store } = engine({ policy: { recordRunning: "when-lomi-runs" } });
  const dispatch = lomi.dispatch.bind(lomi);
  let read: Promise<unknown> | undefined;
  lomi.dispatch = async (target, permit) => {
    // Scheduled now, the read comes after Lomi answered and before the engine's next group write records it.
    read ??= new Promise((resolve) => setImmediate(() => resolve(e.refresh(store.byId(permit.operationId)!))));
    return dispatch(target, permit);
  };
  await admit(run("k1"));
  await read;
  assert.equal(lomi.dispatched.length, 1);
});

/** Each state the operation entered, in order (an event that only moves its effectState adds none). */
const statesOf = (store: ReceiptStore, operationId: string) =>
  store
    .events("pair-1", "ws", 0, 100)
    .events.filter((e) => e.operationId === operationId && e.state !== e.previousState)
    .map((e) => e.state);

test("recording running only when Lomi runs the work, a cancel that finds the receipt queued while its dispatch is on its way cancels it through Lomi, and the next on its target waits", async () => {
  const { engine: e, admit, lomi, store } = engine({ policy: { recordRunning: "when-lomi-runs" } });
  const first = (await admit(run("k1"))).receipt;
  const second = (await admit(run("k2"))).receipt;
  assert.equal(second.state, "queued", "k1 is ahead of it on term-1");
  // Lomi starts k2's process at its dispatch, answers a turn later, and the process ignores Ctrl+C: cancelled, it stays cancelling.
  lomi.dispatchAnswer = { phase: "running", effectState: "partial" };
  lomi.cancelAnswer = { phase: "cancelling", effectState: "partial" };
  const dispatch = lomi.dispatch.bind(lomi);
  let sent!: () => void;
  const onItsWay = new Promise<void>((resolve) => (sent = resolve));
  lomi.dispatch = async (target, permit) => {
    const answer = await dispatch(target, permit);
    lomi.statusAnswer = answer;
    sent();
    await new Promise(setImmediate);
    return answer;
  };
  // The cancel's first clock read comes after its own read found k1 running: k1 settles then, and another read dispatches k2.
  const now = lomi.now.bind(lomi);
  let other: Promise<unknown> | undefined;
  lomi.now = async () => {
    if (!other) {
      lomi.statusAnswer = settled;
      other = e.refresh(store.byId(first.operationId)!);
      await onItsWay;
    }
    return now();
  };
  const cancel = await e.cancel(second);
  await other;
  assert.deepEqual(lomi.cancelled, [second.operationId], "Lomi, which holds the dispatch, is asked to cancel it");
  assert.equal(cancel.outcome, "cancelling");
  assert.deepEqual([cancel.receipt.state, cancel.receipt.effectState], ["cancelling", "partial"], "never cancelled with nothing done while Lomi runs it");
  assert.deepEqual(statesOf(store, second.operationId), ["queued", "running", "cancelling"]);
  const third = (await admit(run("k3"))).receipt;
  assert.equal(third.state, "queued");
  assert.deepEqual(
    lomi.dispatched.map((d) => d.permit.operationId),
    [first.operationId, second.operationId],
    "k2 was sent once, and k3 waits while k2 is unsettled",
  );
});

test("recording running only when Lomi runs the work, a dispatch whose answer could not be written is never sent again: the next on its target waits, and a cancel goes through Lomi", async () => {
  const counting = new CountingStore(new MemoryReceiptStore());
  const { engine: e, admit, lomi } = engine({ store: counting, policy: { recordRunning: "when-lomi-runs" } });
  counting.failSettlements = 1;
  await assert.rejects(admit(run("k1")), codeOf("STORE_UNAVAILABLE"));
  const id = lomi.dispatched[0]!.permit.operationId;
  assert.equal(counting.byId(id)?.state, "queued", "Lomi's answer is not recorded");
  lomi.statusAnswer = new LomiError("NATIVE_UNAVAILABLE", "Lomi does not answer");
  const second = (await admit(run("k2"))).receipt;
  assert.equal(second.state, "queued");
  assert.equal(lomi.dispatched.length, 1, "neither k1 again nor k2 while Lomi may hold k1");
  lomi.cancelAnswer = { phase: "settled", state: "cancelled", effectState: "partial", result: null, error: null };
  const cancel = await e.cancel(counting.byId(id)!);
  assert.deepEqual(lomi.cancelled, [id]);
  assert.deepEqual([cancel.outcome, cancel.receipt.state, cancel.receipt.effectState], ["cancelled", "cancelled", "partial"]);
  assert.deepEqual(statesOf(counting, id), ["queued", "running", "cancelling", "cancelled"], "its work was dispatched: queued → cancelling is no transition");
  assert.deepEqual(
    lomi.dispatched.map((d) => d.permit.operationId),
    [id, second.operationId],
    "k2 goes once k1 has settled",
  );
});

test("crash after reserve: the receipt is durable and nothing was dispatched", async () => {
  const { admit, lomi, store } = engine({ faults: ["crash-after-reserve"] });
  await assert.rejects(admit(run("k1")), BrokerCrashed);
  assert.equal(lomi.dispatched.length, 0);
  assert.equal(store.status(0).unfinished, 1);
});

test("crash after dispatch: dispatched once, the settlement Lomi answered is not recorded", async () => {
  const { admit, lomi, store } = engine({ faults: ["crash-after-dispatch"] });
  lomi.dispatchAnswer = settled;
  await assert.rejects(admit(run("k1")), BrokerCrashed);
  assert.equal(lomi.dispatched.length, 1);
  assert.equal(store.status(0).unfinished, 1);
});

test("crash before settle: a read that learns the settlement dies before recording it", async () => {
  const { engine: e, admit, lomi, store } = engine({ faults: ["crash-before-settle"] });
  const { receipt } = await admit(run("k1"));
  lomi.statusAnswer = settled;
  await assert.rejects(e.refresh(receipt), BrokerCrashed);
  assert.equal(store.byId(receipt.operationId)?.state, "running");
});

test("a lost dispatch reply leaves the operation running with its effect unknown", async () => {
  const { admit, lomi } = engine();
  lomi.dispatchAnswer = new LomiError("NATIVE_UNAVAILABLE", "no reply");
  const { receipt } = await admit(run("k1"));
  assert.deepEqual([receipt.state, receipt.effectState], ["running", "unknown"]);
});

test("at the receipt limit an admission is RESOURCE_EXHAUSTED with nothing dispatched", async () => {
  const { admit, lomi } = engine({ store: new MemoryReceiptStore({ receipts: 1, epochs: 5 }) });
  await admit(run("k1"));
  await assert.rejects(admit(run("k2", { terminalSessionId: "term-2" })), codeOf("RESOURCE_EXHAUSTED"));
  assert.equal(lomi.dispatched.length, 1);
});
