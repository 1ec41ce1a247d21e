import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { StoredEpoch } from "../reference-broker/receipt-store.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import type { Mutant } from "./mutant.js";

/** Housekeeping nobody asked for: expired retry epochs go whenever the store is read or written (a reconcile that removes no receipt). */
class PurgingStore extends DelegatingReceiptStore {
  private purge(now: number): void {
    this.inner.reconcile(now, Number.MIN_SAFE_INTEGER, "", []);
  }
  override status(now: number) {
    this.purge(now);
    return super.status(now);
  }
  override insertEpoch(epoch: StoredEpoch) {
    this.purge(epoch.issuedAt);
    super.insertEpoch(epoch);
  }
}

export const capExpiredEpochsPurged: Mutant = {
  name: "cap-expired-epochs-purged",
  family: "CAP",
  breaks: ["CAP-03"],
  defect: "expired retry epochs are deleted by housekeeping whenever the store is read or written, instead of staying until deliberate maintenance",
  needs: "own-store",
  parts: {
    openStore: (file, now, _native, options) => {
      const opened = openSqliteStore(file, now, options);
      return { ...opened, store: new PurgingStore(opened.store) };
    },
  },
};
