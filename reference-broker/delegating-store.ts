import type { OperationState } from "../protocol/states.js";
import type { ReceiptStore, Reservation, StoredEpoch, StoredReceipt, TransitionChain, TransitionFields } from "./receipt-store.js";

/**
 * A store that hands every call to another: the base of a decorator (fault hooks) or of a
 * deliberately broken store (mutants/), each overriding only what it changes.
 */
export class DelegatingReceiptStore implements ReceiptStore {
  constructor(protected readonly inner: ReceiptStore) {}

  byKey(receiptKey: string) {
    return this.inner.byKey(receiptKey);
  }
  byId(operationId: string) {
    return this.inner.byId(operationId);
  }
  reserveAll(reservations: readonly Reservation[]) {
    return this.inner.reserveAll(reservations);
  }
  unsettledOn(serializeKey: string) {
    return this.inner.unsettledOn(serializeKey);
  }
  unsettledIn(pairingId: string, workspaceId: string) {
    return this.inner.unsettledIn(pairingId, workspaceId);
  }
  transition(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number) {
    return this.inner.transition(current, to, fields, now);
  }
  transitionAll(chains: readonly TransitionChain[]) {
    return this.inner.transitionAll(chains);
  }
  events(pairingId: string, workspaceId: string, after: number, limit: number) {
    return this.inner.events(pairingId, workspaceId, after, limit);
  }
  status(now: number) {
    return this.inner.status(now);
  }
  reconcile(now: number, settledBefore: number, pairingId: string, forget: readonly string[]) {
    return this.inner.reconcile(now, settledBefore, pairingId, forget);
  }
  insertEpochs(epochs: readonly StoredEpoch[]) {
    return this.inner.insertEpochs(epochs);
  }
  epoch(retryEpoch: string) {
    return this.inner.epoch(retryEpoch);
  }
  close() {
    this.inner.close();
  }
}
