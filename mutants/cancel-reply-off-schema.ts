import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingReplies } from "./rewriting-session.js";

export const cancelReplyOffSchema: Mutant = {
  name: "cancel-reply-off-schema",
  family: "ENV",
  breaks: ["ENV-04"],
  defect: "lomi_operation_cancel's reply adds a field its published output schema does not have (requestedAt)",
  parts: {
    session: sessionRewritingReplies((reply, name) => {
      const data = okDataOf(reply);
      return name === "lomi_operation_cancel" && data ? okReply({ ...data, requestedAt: new Date(0).toISOString() }) : reply;
    }),
  },
};
