import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { getOrInsert } from "../../map-entry.js";
import { isObject } from "../../history/replies.js";
import { errorCodeOf, operationContract, resendsLost, walkData } from "../conduct.js";

/** A layout mutation: its expectedRevision is the workspace's domainRevision (other tools' expected*Revision are their own). */
const isLayoutMutation = (tool: string) => operationContract(tool)?.revisionField === "expectedRevision";

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);
const isDecimal = (v: unknown): v is string => typeof v === "string" && /^\d+$/.test(v);

/** AGENT-05: a layout mutation uses the newest domainRevision the agent was shown after its own last layout change there. */
export const freshLayout: AgentCheck = {
  rule: "AGENT-05",
  none: "the agent sent no layout mutation (lomi_terminal_create, lomi_browser_open)",
  trials(c) {
    const trials: Trial[] = [];
    /** Per workspace: each domainRevision shown, where; the revisions refused as stale; the agent's last admitted layout mutation. */
    const shown = new Map<string, Array<{ index: number; revision: string }>>();
    const refused = new Map<string, Set<string>>();
    const ownChange = new Map<string, number>();
    const sent = new Set<string>();
    for (const call of c.calls) {
      const ws = typeof call.args.workspaceId === "string" ? call.args.workspaceId : undefined;
      if (isLayoutMutation(call.tool) && ws !== undefined && isDecimal(call.args.expectedRevision)) {
        const revision = call.args.expectedRevision;
        const request = JSON.stringify([call.tool, call.args.retryEpoch, call.args.requestKey]);
        // A resend of a request already sent keeps its revision (AGENT-08's, or a plain duplicate).
        if (!sent.has(request) && !resendsLost(c, call)) {
          const seen = shown.get(ws) ?? [];
          const newest = seen.reduce<string | undefined>((n, s) => (n === undefined || newer(s.revision, n) ? s.revision : n), undefined);
          const since = ownChange.get(ws);
          const fresh = seen.filter((s) => since === undefined || s.index >= since);
          const where = seen.filter((s) => s.revision === revision).map((s) => s.index);
          if (newest === undefined) trials.push(undecided([call.index], `${call.tool} sent expectedRevision ${revision} for ${ws}, a workspace whose revision no reply had shown the agent`));
          else if (refused.get(ws)?.has(revision)) trials.push(broken([call.index], `${call.tool} sent expectedRevision ${revision} for ${ws}, which the broker had already refused as stale`));
          else if (newer(newest, revision)) trials.push(broken([...where.slice(-1), call.index], `${call.tool} sent expectedRevision ${revision} for ${ws}, older than the domainRevision ${newest} it had been shown`));
          else if (!fresh.some((s) => s.revision === revision)) trials.push(broken([since!, call.index], `${call.tool} sent expectedRevision ${revision} for ${ws}, read before its own layout change at record ${since}: it did not refresh the layout`));
          else trials.push(kept([call.index], `${call.tool} sent the domainRevision ${revision} it was last shown for ${ws}`));
        }
        sent.add(request);
        if (errorCodeOf(call) === "REVISION_CONFLICT") getOrInsert(refused, ws, () => new Set()).add(revision);
      }
      if (call.envelope?.status !== "ok") continue;
      const data = call.envelope.data;
      // An admission (not a returned duplicate) of a layout mutation changes the layout.
      if (isLayoutMutation(call.tool) && ws !== undefined && data.duplicate !== true) ownChange.set(ws, call.index);
      // Every domainRevision the reply shows, with its workspace: a listing's, or a receipt's result (whose workspace is the receipt's).
      walkData(data, (o) => {
        const of = typeof o.workspaceId === "string" ? o.workspaceId : ws;
        if (of === undefined) return;
        for (const revision of [o.domainRevision, isObject(o.result) ? o.result.domainRevision : undefined]) if (isDecimal(revision)) getOrInsert(shown, of, () => []).push({ index: call.index, revision });
      });
    }
    return trials;
  },
};
