import { contractOf } from "../protocol/catalogue.js";
import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { Reservation } from "../reference-broker/receipt-store.js";
import type { Mutant } from "./mutant.js";
import { storeReachedBy, storeWrappedBy } from "./wrapped-store.js";

/** Each operation its own queue: nothing is ever ahead of it, so everything is dispatched at once. */
class QueuePerOperation extends DelegatingReceiptStore {
  override reserveAll(reservations: readonly Reservation[]) {
    return super.reserveAll(reservations.map((r) => ({ ...r, receipt: { ...r.receipt, serializeKey: `${r.receipt.serializeKey}#${r.receipt.operationId}` } })));
  }
}

export const serialNoTargetQueue: Mutant = {
  name: "serial-no-target-queue",
  family: "SERIAL",
  breaks: ["SERIAL-01"],
  defect: "the broker keys its dispatch queue by operation instead of by target: operations on one target are dispatched together, none waits queued",
  parts: {
    // Only an operation's admission reserves a receipt: its call reaches the dispatch of it, however much later.
    openStore: storeReachedBy(
      ({ tool }) => contractOf(tool)?.kind === "operation",
      storeWrappedBy((inner) => new QueuePerOperation(inner)),
    ),
  },
};
