import { ReceiptStore } from "../reference-broker/receipt-store.js";
import { overriding } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

export const capNoReceiptLimit: Mutant = {
  name: "cap-no-receipt-limit",
  family: "CAP",
  breaks: [],
  defect: "the store admits receipts past 4,096 (its count always reads 0), so RESOURCE_EXHAUSTED never comes",
  parts: {
    openStore: (file, now) => {
      const opened = ReceiptStore.open(file, now);
      return { ...opened, store: overriding(opened.store, { receiptCount: () => 0 }) };
    },
  },
};
