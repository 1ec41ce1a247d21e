import { contractOf } from "../protocol/catalogue.js";
import type { Mutant } from "./mutant.js";
import { errorCodeOf, okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

const STALE = new Set(["RETRY_EPOCH_INVALID", "RETRY_EPOCH_EXPIRED"]);

export const epochStaleAuthorityRenewed: Mutant = {
  name: "epoch-stale-authority-renewed",
  family: "EPOCH",
  breaks: ["EPOCH-01", "EPOCH-03", "EPOCH-04"],
  defect: "a retry epoch from an earlier broker instance, another connection or past its 24 hours is silently renewed, so old authority submits new work",
  needs: "crash",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, args, reply }) => contractOf(tool)?.kind === "operation" && STALE.has(errorCodeOf(reply) ?? "") && typeof args.workspaceId === "string",
      async (reply, name, args, { call }) => {
        const fresh = okDataOf(await call("lomi_connect", { workspaceId: args.workspaceId }))?.retryEpoch;
        return fresh === undefined ? reply : call(name, { ...args, retryEpoch: fresh });
      },
    ),
  },
};
