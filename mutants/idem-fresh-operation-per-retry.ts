import { sha256Hex } from "../reference-broker/fingerprint.js";
import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { Reservation } from "../reference-broker/receipt-store.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import type { Mutant } from "./mutant.js";

/** Never finds a receipt by its key, and reserves each under a key of its own, so the unique key constraint lets the duplicate in. */
class ForgetfulStore extends DelegatingReceiptStore {
  override byKey() {
    return undefined;
  }
  override reserveAll(reservations: readonly Reservation[]) {
    return super.reserveAll(reservations.map((r) => ({ ...r, receipt: { ...r.receipt, receiptKey: sha256Hex(r.receipt.receiptKey + r.receipt.operationId) } })));
  }
}

export const idemFreshOperationPerRetry: Mutant = {
  name: "idem-fresh-operation-per-retry",
  family: "IDEM",
  breaks: ["IDEM-01"],
  defect: "the store never finds a receipt by its key, so every retry becomes a fresh operation and is dispatched again",
  parts: {
    openStore: (file, now, _native, options) => {
      const opened = openSqliteStore(file, now, options);
      return { ...opened, store: new ForgetfulStore(opened.store) };
    },
  },
};
