import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const cancelSettledReportedCancelled: Mutant = {
  name: "cancel-settled-reported-cancelled",
  family: "CANCEL",
  breaks: ["CANCEL-03", "CANCEL-20", "CANCEL-30", "OP-02"],
  defect: "cancelling a settled operation answers cancelled, as if a completed effect had been undone",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_operation_cancel" && okDataOf(reply)?.outcome === "already_settled",
      (reply) => okReply({ outcome: "cancelled", operation: { ...okDataOf(reply)!.operation, state: "cancelled" } }),
    ),
  },
};
