import type Database from "better-sqlite3";
import { ReceiptStore, type StoredEpoch } from "../reference-broker/receipt-store.js";
import { overriding } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

/** Housekeeping nobody asked for: expired retry epochs deleted whenever the store is touched. */
function purgeExpired(store: ReceiptStore, now: number): void {
  (store as unknown as { db: Database.Database }).db.prepare("DELETE FROM retry_epochs WHERE expires_at <= ?").run(now);
}

export const capExpiredEpochsPurged: Mutant = {
  name: "cap-expired-epochs-purged",
  family: "CAP",
  breaks: ["CAP-03"],
  defect: "expired retry epochs are deleted by housekeeping whenever the store is read or written, instead of staying until deliberate maintenance",
  needs: "own-store",
  parts: {
    openStore: (file, now) => {
      const opened = ReceiptStore.open(file, now);
      const store = overriding(opened.store, {
        status(this: ReceiptStore, at: number) {
          purgeExpired(this, at);
          return ReceiptStore.prototype.status.call(this, at);
        },
        insertEpoch(this: ReceiptStore, epoch: StoredEpoch) {
          purgeExpired(this, epoch.issuedAt);
          return ReceiptStore.prototype.insertEpoch.call(this, epoch);
        },
      });
      return { ...opened, store };
    },
  },
};
