import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

/**
 * A broker that, reading an outcome_unknown operation, asks Lomi where it stands and reports Lomi's
 * settlement: the receipt changes after outcome_unknown, which is final.
 */
export const durLateSettlementAdopted: Mutant = {
  name: "dur-late-settlement-adopted",
  family: "DUR",
  // DUR-04's "does not change the receipt", DUR-01's "reads outcome_unknown" after a reopening, and
  // OP-02's "a settled state is final" (outcome_unknown is one).
  breaks: ["DUR-01", "DUR-04", "OP-02"],
  defect: "lomi_operation_get of an outcome_unknown operation answers the settlement Lomi reports for it since",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_operation_get" && okDataOf(reply)?.operation?.state === "outcome_unknown",
      async (reply, _name, _args, { core }) => {
        const { operation } = okDataOf(reply)!;
        const progress = await core.native.status(operation.operationId).catch(() => undefined);
        if (progress?.phase !== "settled") return reply;
        return okReply({
          operation: { ...operation, state: progress.state, effectState: progress.effectState, result: progress.result, error: progress.error },
        });
      },
    ),
  },
};
