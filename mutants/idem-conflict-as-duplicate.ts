import { publicReceipt } from "../reference-broker/public-receipt.js";
import type { Mutant } from "./mutant.js";
import { envelopeOf, errorCodeOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const idemConflictAsDuplicate: Mutant = {
  name: "idem-conflict-as-duplicate",
  family: "IDEM",
  breaks: ["IDEM-02", "IDEM-03"],
  defect: "changed arguments under a known retry identity return the prior operation instead of IDEMPOTENCY_CONFLICT",
  parts: {
    session: sessionRewritingPicked(
      ({ reply }) => errorCodeOf(reply) === "IDEMPOTENCY_CONFLICT",
      (reply, _name, _args, { core }) => {
        const e = envelopeOf(reply);
        const prior = e.status === "error" ? core.store.byId(String(e.details?.operationId)) : undefined;
        return prior ? okReply({ operation: publicReceipt(prior), duplicate: true }) : reply;
      },
    ),
  },
};
