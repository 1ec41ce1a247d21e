import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { StoredReceipt, TransitionChain, TransitionFields } from "../reference-broker/receipt-store.js";
import type { OperationState } from "../protocol/states.js";
import type { Mutant } from "./mutant.js";
import { storeReachedBy, storeWrappedBy } from "./wrapped-store.js";

/** A settlement as this broker records it: cancelled is taken to mean that nothing happened. */
const asRecorded = (to: OperationState, fields: TransitionFields): TransitionFields => (to === "cancelled" ? { ...fields, effectState: "none" } : fields);

/** Every cancelled settlement it records says effectState none, whatever Lomi said was done. */
class RolledBackStore extends DelegatingReceiptStore {
  override transition(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number) {
    return super.transition(current, to, asRecorded(to, fields), now);
  }
  override transitionAll(chains: readonly TransitionChain[]) {
    return super.transitionAll(chains.map((c) => ({ ...c, steps: c.steps.map((s) => ({ ...s, fields: asRecorded(s.to, s.fields) })) })));
  }
}

export const cancelCancelledAsRolledBack: Mutant = {
  name: "cancel-cancelled-as-rolled-back",
  family: "CANCEL",
  // A cancelled process start (CANCEL-04) and a cancelled provider send (CANCEL-40) read effectState
  // none: the effects Lomi reported are gone from the receipt, which no longer agrees with them (OP-04).
  breaks: ["CANCEL-04", "CANCEL-40", "OP-04"],
  defect: "the broker records every cancelled operation with effectState none, as if cancelling had rolled back what was already done",
  parts: {
    // An operation settles cancelled only once lomi_operation_cancel asked (Lomi never cancels on its own): that call reaches its settlement.
    openStore: storeReachedBy(
      ({ tool }) => tool === "lomi_operation_cancel",
      storeWrappedBy((inner) => new RolledBackStore(inner)),
    ),
  },
};
