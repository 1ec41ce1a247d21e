import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const cancelReplyOffSchema: Mutant = {
  name: "cancel-reply-off-schema",
  family: "ENV",
  breaks: ["ENV-04"],
  defect: "lomi_operation_cancel's reply adds a field its published output schema does not have (requestedAt)",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_operation_cancel" && okDataOf(reply) !== undefined,
      (reply) => okReply({ ...okDataOf(reply)!, requestedAt: new Date(0).toISOString() }),
    ),
  },
};
