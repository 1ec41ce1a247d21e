import type { BrokerParts } from "../reference-broker/broker.js";
import type { ReceiptStore } from "../reference-broker/receipt-store.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { picking, type SeenCall } from "./picks.js";

type OpenStore = NonNullable<BrokerParts["openStore"]>;

/** The reference broker's store, opened as it opens it, with some of its answers changed by `wrap` (a DelegatingReceiptStore): a mutant's defect in the store. */
export const storeWrappedBy =
  (wrap: (inner: ReceiptStore) => ReceiptStore): OpenStore =>
  (file, now, _native, options) => {
    const opened = openSqliteStore(file, now, options);
    return { ...opened, store: wrap(opened.store) };
  };

/**
 * A store part whose defect only the calls `picks` chooses (by what they send) can reach: those whose
 * handling calls the store methods it alters, or makes the receipts they alter (a receipt settled
 * later, in the background, is reached through the call that made it). Every other call finds the
 * reference broker's store, so `lomi-conformance teeth` judges a mutant made of it (and of picking
 * sessions) only in the scenarios whose reference history holds a call it picks.
 */
export const storeReachedBy = (picks: (call: Pick<SeenCall, "tool" | "args">) => boolean, openStore: OpenStore) => picking(openStore, picks);
