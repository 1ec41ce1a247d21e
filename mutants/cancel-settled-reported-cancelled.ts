import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingReplies } from "./rewriting-session.js";

export const cancelSettledReportedCancelled: Mutant = {
  name: "cancel-settled-reported-cancelled",
  family: "CANCEL",
  breaks: ["CANCEL-03", "CANCEL-20", "CANCEL-30", "OP-02"],
  defect: "cancelling a settled operation answers cancelled, as if a completed effect had been undone",
  parts: {
    session: sessionRewritingReplies((reply, name) => {
      const data = okDataOf(reply);
      if (name !== "lomi_operation_cancel" || data?.outcome !== "already_settled") return reply;
      return okReply({ outcome: "cancelled", operation: { ...data.operation, state: "cancelled" } });
    }),
  },
};
