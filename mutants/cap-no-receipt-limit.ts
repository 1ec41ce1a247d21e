import { ReceiptStore, type StoredReceipt } from "../reference-broker/receipt-store.js";
import { overriding } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

export const capNoReceiptLimit: Mutant = {
  name: "cap-no-receipt-limit",
  family: "CAP",
  breaks: ["CAP-01"],
  needs: "own-store",
  defect: "the store admits receipts past 4,096 (its capacity check counts none), so RESOURCE_EXHAUSTED never comes; lomi_store_status still tells the truth",
  parts: {
    openStore: (file, now) => {
      const opened = ReceiptStore.open(file, now);
      let reserving = false;
      const store = overriding(opened.store, {
        reserve(this: ReceiptStore, receipt: StoredReceipt) {
          reserving = true;
          try {
            return ReceiptStore.prototype.reserve.call(this, receipt);
          } finally {
            reserving = false;
          }
        },
        receiptCount(this: ReceiptStore) {
          return reserving ? 0 : ReceiptStore.prototype.receiptCount.call(this);
        },
      });
      return { ...opened, store };
    },
  },
};
