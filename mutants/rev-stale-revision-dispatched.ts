import { madeUpKey } from "./made-up-permit.js";
import type { Mutant } from "./mutant.js";
import { errorCodeOf, sessionRewritingPicked } from "./rewriting-session.js";

export const revStaleRevisionDispatched: Mutant = {
  name: "rev-stale-revision-dispatched",
  family: "REV",
  breaks: ["REV-01"],
  defect:
    "a terminal create with a stale expectedRevision is sent to Lomi before the revision is checked; Lomi refuses it there, and the agent is answered REVISION_CONFLICT as if nothing had been done",
  oracle: "refusals-dispatch-nothing",
  stepsBlind: false,
  parts: {
    session: sessionRewritingPicked(
      ({ tool, args, reply }) => tool === "lomi_terminal_create" && errorCodeOf(reply) === "REVISION_CONFLICT" && typeof args.workspaceId === "string",
      async (reply, name, args, { core, clientName }) => {
        const workspaceId = String(args.workspaceId);
        const { pairingId } = await core.native.pairing(clientName(), core.instanceId);
        const projectId = (await core.native.workspace(pairingId, workspaceId)).projects[0]?.projectId ?? "";
        const key = madeUpKey(`${pairingId} ${String(args.retryEpoch)} ${String(args.requestKey)}`);
        await core.native
          .dispatch({ pairingId, tool: name, workspaceId, projectId, args }, { operationId: `op-${key.slice(0, 12)}`, receiptKey: key, fingerprint: key })
          .catch(() => undefined);
        return reply;
      },
    ),
  },
};
