import { RETRY_EPOCH_VALIDITY_MS } from "../protocol/tools/workspace.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

/**
 * A broker that adds the validity twice when it tells an epoch's expiry: it still refuses the epoch
 * 24 hours after Lomi's clock, but tells the agent 48.
 */
export const epochExpiryToldLate: Mutant = {
  name: "epoch-expiry-told-late",
  family: "EPOCH",
  breaks: ["EPOCH-02"],
  defect: "lomi_connect's retryEpochExpiresAt is 48 hours after Lomi's clock, though the epoch expires after 24",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_connect" && okDataOf(reply) !== undefined,
      (reply) => {
        const data = okDataOf(reply)!;
        return okReply({ ...data, retryEpochExpiresAt: new Date(Date.parse(data.retryEpochExpiresAt) + RETRY_EPOCH_VALIDITY_MS).toISOString() });
      },
    ),
  },
};
