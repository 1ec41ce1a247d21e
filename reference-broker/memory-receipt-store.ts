import { LomiError } from "../protocol/errors.js";
import { isSettled, type OperationState } from "../protocol/states.js";
import {
  applyChain,
  DEFAULT_STORE_LIMITS,
  epochLimitReached,
  isEvent,
  receiptLimitReached,
  transitioned,
  type Reconciled,
  type ReceiptStore,
  type Reservation,
  type ReservationOutcome,
  type StoredEpoch,
  type StoredEvent,
  type StoredReceipt,
  type TransitionChain,
  type StoreLimits,
  type StoreStatus,
  type TransitionFields,
  type EpochOutcome,
} from "./receipt-store.js";

interface EventRow extends StoredEvent {
  pairingId: string;
}

/**
 * The store's rules without a disk, for unit tests of the engine: nothing survives the process,
 * so it never stands in for the reference broker's durable store.
 */
export class MemoryReceiptStore implements ReceiptStore {
  /** Insertion order is the store's row order (oldest first), as SQLite's rowid is. */
  private readonly receipts = new Map<string, StoredReceipt>();
  private readonly byReceiptKey = new Map<string, string>();
  private readonly epochs = new Map<string, StoredEpoch>();
  private eventRows: EventRow[] = [];
  private sequence = 0;

  constructor(private readonly limits: StoreLimits = DEFAULT_STORE_LIMITS) {}

  byKey(receiptKey: string): StoredReceipt | undefined {
    const id = this.byReceiptKey.get(receiptKey);
    return id === undefined ? undefined : this.receipts.get(id);
  }

  byId(operationId: string): StoredReceipt | undefined {
    return this.receipts.get(operationId);
  }

  reserveAll(reservations: readonly Reservation[]): ReservationOutcome[] {
    return reservations.map(({ receipt, claim }): ReservationOutcome => {
      const existing = this.byKey(receipt.receiptKey);
      if (existing) return { receipt: existing, inserted: false };
      if (this.receipts.size >= this.limits.receipts) return { refused: new LomiError("RESOURCE_EXHAUSTED", receiptLimitReached(this.limits)) };
      const ahead = this.unsettledOn(receipt.serializeKey).length > 0;
      this.receipts.set(receipt.operationId, receipt);
      this.byReceiptKey.set(receipt.receiptKey, receipt.operationId);
      this.event(receipt, null, receipt.createdAt);
      const claimed = claim && !ahead ? this.transition(receipt, "running", {}, receipt.createdAt) : undefined;
      return { receipt: claimed ?? receipt, inserted: true };
    });
  }

  unsettledOn(serializeKey: string): StoredReceipt[] {
    return [...this.receipts.values()].filter((r) => r.serializeKey === serializeKey && !isSettled(r.state));
  }

  unsettledIn(pairingId: string, workspaceId: string): StoredReceipt[] {
    return [...this.receipts.values()].filter((r) => r.pairingId === pairingId && r.workspaceId === workspaceId && !isSettled(r.state));
  }

  transition(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined {
    const stored = this.receipts.get(current.operationId);
    if (!stored || stored.state !== current.state || stored.effectState !== current.effectState) return undefined;
    const next = transitioned(current, to, fields, now);
    if (!next) return undefined;
    this.receipts.set(next.operationId, next);
    if (isEvent(current, next)) this.event(next, current.state, now);
    return next;
  }

  transitionAll(chains: readonly TransitionChain[]): StoredReceipt[] {
    return chains.map((chain) =>
      applyChain(
        chain,
        (...a) => this.transition(...a),
        (id) => this.byId(id),
      ),
    );
  }

  private event(r: StoredReceipt, previousState: OperationState | null, at: number): void {
    const { operationId, tool, workspaceId, pairingId, state, effectState } = r;
    this.eventRows.push({ sequence: ++this.sequence, operationId, tool, workspaceId, pairingId, previousState, state, effectState, at });
  }

  events(pairingId: string, workspaceId: string, after: number, limit: number): { events: StoredEvent[]; hasMore: boolean } {
    const rows = this.eventRows.filter((e) => e.pairingId === pairingId && e.workspaceId === workspaceId && e.sequence > after);
    return { events: rows.slice(0, limit).map(({ pairingId: _, ...event }) => event), hasMore: rows.length > limit };
  }

  status(now: number): StoreStatus {
    const receipts = [...this.receipts.values()];
    return {
      receipts: { count: receipts.length, limit: this.limits.receipts },
      retryEpochs: { count: this.epochs.size, limit: this.limits.epochs, expired: [...this.epochs.values()].filter((e) => e.expiresAt <= now).length },
      unfinished: receipts.filter((r) => !isSettled(r.state)).length,
      outcomeUnknown: receipts.filter((r) => r.state === "outcome_unknown").length,
    };
  }

  reconcile(now: number, settledBefore: number, pairingId: string, forget: readonly string[]): Reconciled {
    const removable = (r: StoredReceipt) =>
      (["succeeded", "failed", "cancelled"].includes(r.state) && r.updatedAt <= settledBefore) || (forget.includes(r.operationId) && r.pairingId === pairingId);
    const gone = [...this.receipts.values()].filter(removable);
    for (const r of gone) {
      this.receipts.delete(r.operationId);
      this.byReceiptKey.delete(r.receiptKey);
    }
    const before = this.eventRows.length;
    this.eventRows = this.eventRows.filter((e) => this.receipts.has(e.operationId));
    const referenced = new Set([...this.receipts.values()].map((r) => r.retryEpoch));
    const expired = [...this.epochs.values()].filter((e) => e.expiresAt <= now && !referenced.has(e.retryEpoch));
    for (const e of expired) this.epochs.delete(e.retryEpoch);
    return { receipts: gone.length, retryEpochs: expired.length, events: before - this.eventRows.length };
  }

  insertEpochs(epochs: readonly StoredEpoch[]): EpochOutcome[] {
    return epochs.map((epoch) => {
      if (this.epochs.size >= this.limits.epochs) return { refused: new LomiError("RESOURCE_EXHAUSTED", epochLimitReached(this.limits)) };
      this.epochs.set(epoch.retryEpoch, epoch);
      return { recorded: true };
    });
  }

  epoch(retryEpoch: string): StoredEpoch | undefined {
    return this.epochs.get(retryEpoch);
  }

  close(): void {}
}
