import { publicReceipt } from "../reference-broker/public-receipt.js";
import type { Mutant } from "./mutant.js";
import { errorCodeOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const authForeignReceiptsShown: Mutant = {
  name: "auth-foreign-receipts-shown",
  family: "AUTH",
  breaks: ["AUTH-05"],
  defect: "lomi_operation_get shows any receipt in the store, another pairing's included",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_operation_get" && errorCodeOf(reply) === "NOT_FOUND",
      (reply, _name, args, { core }) => {
        const receipt = core.store.byId(String(args.operationId));
        return receipt ? okReply({ operation: publicReceipt(receipt) }) : reply;
      },
    ),
  },
};
