import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { StoredEpoch } from "../reference-broker/receipt-store.js";
import type { Mutant } from "./mutant.js";
import { storeWrappedBy } from "./wrapped-store.js";

/**
 * Housekeeping nobody asked for: expired retry epochs go whenever the store is read or written.
 * Through the store's own interface: a reconcile that removes no receipt deletes the expired epochs
 * nothing refers to, and the expired ones receipts still name are hidden from then on.
 */
class PurgingStore extends DelegatingReceiptStore {
  private purgedAt = Number.NEGATIVE_INFINITY;
  private purge(now: number): void {
    this.purgedAt = Math.max(this.purgedAt, now);
    this.inner.reconcile(now, Number.MIN_SAFE_INTEGER, "", []);
  }
  override status(now: number) {
    this.purge(now);
    const s = super.status(now);
    return { ...s, retryEpochs: { ...s.retryEpochs, count: s.retryEpochs.count - s.retryEpochs.expired, expired: 0 } };
  }
  override insertEpochs(epochs: readonly StoredEpoch[]) {
    for (const epoch of epochs) this.purge(epoch.issuedAt);
    return super.insertEpochs(epochs);
  }
  override epoch(retryEpoch: string) {
    const found = super.epoch(retryEpoch);
    return found && found.expiresAt <= this.purgedAt ? undefined : found;
  }
}

export const capExpiredEpochsPurged: Mutant = {
  name: "cap-expired-epochs-purged",
  family: "CAP",
  // Expired epochs stay until deliberate maintenance (CAP-03), which lomi_store_reconcile is (CAP-04: what it removes is theirs to remove); its status hides them (CAP-05); a retry under a purged epoch no longer returns its operation (EPOCH-03).
  breaks: ["CAP-03", "CAP-04", "CAP-05", "EPOCH-03"],
  defect: "expired retry epochs are deleted by housekeeping whenever the store is read or written, instead of staying until deliberate maintenance",
  needs: "own-store",
  parts: {
    openStore: storeWrappedBy((inner) => new PurgingStore(inner)),
  },
};
