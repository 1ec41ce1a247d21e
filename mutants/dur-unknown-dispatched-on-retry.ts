import { contractOf } from "../protocol/catalogue.js";
import { madeUpKey } from "./made-up-permit.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

export const durUnknownDispatchedOnRetry: Mutant = {
  name: "dur-unknown-dispatched-on-retry",
  family: "DUR",
  // A retry after a restart returns the outcome_unknown operation and dispatches nothing (DUR-03, IDEM-01);
  // an operation unfinished at a crash is never dispatched again (DUR-01, DUR-06).
  breaks: ["DUR-03", "IDEM-01", "DUR-01", "DUR-06"],
  defect:
    "the broker takes outcome_unknown for not done: a retry of an operation that reads outcome_unknown is reserved and sent to Lomi again as a new attempt (a receipt of its own), while the retry still answers the outcome_unknown operation",
  needs: "crash",
  // Its own rule's scenario shows it; the others it breaks are judged with the whole suite in-process (teeth).
  shownBy: "@DUR-03",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) =>
        contractOf(tool)?.kind === "operation" && okDataOf(reply)?.duplicate === true && okDataOf(reply)?.operation?.state === "outcome_unknown",
      async (reply, _name, _args, { core }) => {
        const data = okDataOf(reply)!;
        const prior = core.store.byId(String(data.operation.operationId));
        if (!prior) return reply;
        const now = await core.native.now();
        const operationId = core.random.id("op-");
        const attempt = {
          ...prior,
          operationId,
          receiptKey: madeUpKey(`${prior.receiptKey}.${operationId}`),
          state: "queued" as const,
          effectState: "none" as const,
          result: null,
          error: null,
          createdAt: now,
          updatedAt: now,
        };
        const [reserved] = core.store.reserveAll([{ receipt: attempt, claim: true }]);
        if (!reserved || "refused" in reserved) return reply;
        const target = { pairingId: prior.pairingId, tool: prior.tool, workspaceId: prior.workspaceId, projectId: prior.projectId, args: prior.args };
        await core.native.dispatch(target, { operationId, receiptKey: attempt.receiptKey, fingerprint: prior.fingerprint }).catch(() => undefined);
        return reply;
      },
    ),
  },
};
