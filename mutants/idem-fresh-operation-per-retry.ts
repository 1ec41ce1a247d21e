import { sha256Hex } from "../reference-broker/fingerprint.js";
import { ReceiptStore, type StoredReceipt } from "../reference-broker/receipt-store.js";
import { overriding } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

export const idemFreshOperationPerRetry: Mutant = {
  name: "idem-fresh-operation-per-retry",
  family: "IDEM",
  breaks: ["IDEM-01"],
  defect: "the store never finds a receipt by its key, so every retry becomes a fresh operation and is dispatched again",
  parts: {
    openStore: (file, now) => {
      const opened = ReceiptStore.open(file, now);
      const store = overriding(opened.store, {
        byKey: () => undefined,
        // Each reservation under its own key, so the unique key constraint lets the duplicate in.
        reserve(this: ReceiptStore, receipt: StoredReceipt) {
          return ReceiptStore.prototype.reserve.call(this, { ...receipt, receiptKey: sha256Hex(receipt.receiptKey + receipt.operationId) });
        },
      });
      return { ...opened, store };
    },
  },
};
