import type { BrokerParts } from "../reference-broker/broker.js";
import type { ReceiptStore } from "../reference-broker/receipt-store.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";

/** The reference broker's store, opened as it opens it, with some of its answers changed by `wrap` (a DelegatingReceiptStore): a mutant's defect in the store. */
export const storeWrappedBy =
  (wrap: (inner: ReceiptStore) => ReceiptStore): NonNullable<BrokerParts["openStore"]> =>
  (file, now, _native, options) => {
    const opened = openSqliteStore(file, now, options);
    return { ...opened, store: wrap(opened.store) };
  };
