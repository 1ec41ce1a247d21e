import { madeUpKey } from "./made-up-permit.js";
import type { Mutant } from "./mutant.js";
import { errorCodeOf, sessionWrappedBy } from "./rewriting-session.js";

export const revStaleRevisionDispatched: Mutant = {
  name: "rev-stale-revision-dispatched",
  family: "REV",
  breaks: ["REV-01"],
  defect: "a terminal create with a stale expectedRevision is sent to Lomi before the revision is checked; Lomi refuses it there, and the agent is answered REVISION_CONFLICT as if nothing had been done",
  oracle: "refusals-dispatch-nothing",
  stepsBlind: false,
  parts: {
    session: sessionWrappedBy(async ({ call, core, clientName }, name, args) => {
      const reply = await call(name, args);
      if (name !== "lomi_terminal_create" || errorCodeOf(reply) !== "REVISION_CONFLICT" || typeof args.workspaceId !== "string") return reply;
      const { pairingId } = await core.native.pairing(clientName(), core.instanceId);
      const projectId = (await core.native.workspace(pairingId, args.workspaceId)).projects[0]?.projectId ?? "";
      const key = madeUpKey(`${pairingId} ${String(args.retryEpoch)} ${String(args.requestKey)}`);
      await core.native.dispatch({ pairingId, tool: name, workspaceId: args.workspaceId, projectId, args }, { operationId: `op-${key.slice(0, 12)}`, receiptKey: key, fingerprint: key }).catch(() => undefined);
      return reply;
    }),
  },
};
