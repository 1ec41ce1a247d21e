import { publicReceipt } from "../reference-broker/public-receipt.js";
import type { Mutant } from "./mutant.js";
import { okReply, sessionWrappingPicked } from "./rewriting-session.js";

export const cancelDecisionLeftOpen: Mutant = {
  name: "cancel-decision-left-open",
  family: "CANCEL",
  breaks: ["CANCEL-42"],
  defect:
    "cancelling an operation that awaits the user's decision settles it cancelled in the broker's store without telling Lomi, as for queued work: Lomi goes on showing the user the decision",
  parts: {
    session: sessionWrappingPicked(
      ({ tool }) => tool === "lomi_operation_cancel",
      async ({ call, core }, name, args) => {
        const stored = core.store.byId(String(args.operationId));
        const current = stored && (await core.engine.refresh(stored));
        if (current?.state !== "awaiting_user") return call(name, args);
        // Not yet running, so (it reasons) nothing to ask Lomi: the receipt alone is settled.
        const cancelled = core.store.transition(current, "cancelled", { effectState: "none" }, await core.native.now());
        return cancelled ? okReply({ outcome: "cancelled", operation: publicReceipt(cancelled) }) : call(name, args);
      },
    ),
  },
};
