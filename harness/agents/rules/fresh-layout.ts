import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { isObject, type IndexedCall } from "../../history/replies.js";
import { answeredBefore, errorCodeOf, operationContract, resendsLost, walkData } from "../conduct.js";

/** A layout mutation: its expectedRevision is the workspace's domainRevision (other tools' expected*Revision are their own). */
const isLayoutMutation = (tool: string) => operationContract(tool)?.revisionField === "expectedRevision";

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);
const isDecimal = (v: unknown): v is string => typeof v === "string" && /^\d+$/.test(v);

/** AGENT-05: a layout mutation uses the newest domainRevision the agent was shown after its own last layout change there. */
export const freshLayout: AgentCheck = {
  rule: "AGENT-05",
  none: "the agent sent no layout mutation (lomi_terminal_create, lomi_browser_open)",
  trials(c) {
    // What the agent's replies showed of each workspace's layout revision, and what it did to the layout.
    const shown: Array<{ ws: string; revision: string; call: IndexedCall }> = [];
    const refused: Array<{ ws: string; revision: string; call: IndexedCall }> = [];
    const changes: Array<{ ws: string; call: IndexedCall }> = [];
    for (const call of c.calls) {
      const ws = typeof call.args.workspaceId === "string" ? call.args.workspaceId : undefined;
      if (isLayoutMutation(call.tool) && ws !== undefined && errorCodeOf(call) === "REVISION_CONFLICT" && isDecimal(call.args.expectedRevision))
        refused.push({ ws, revision: call.args.expectedRevision, call });
      if (call.envelope?.status !== "ok") continue;
      const data = call.envelope.data;
      // An admission (not a returned duplicate) of a layout mutation changes the layout.
      if (isLayoutMutation(call.tool) && ws !== undefined && data.duplicate !== true) changes.push({ ws, call });
      // Every domainRevision the reply shows, with its workspace: a listing's, or a receipt's result (whose workspace is the receipt's).
      walkData(data, (o) => {
        const of = typeof o.workspaceId === "string" ? o.workspaceId : ws;
        if (of === undefined) return;
        for (const revision of [o.domainRevision, isObject(o.result) ? o.result.domainRevision : undefined])
          if (isDecimal(revision)) shown.push({ ws: of, revision, call });
      });
    }
    const trials: Trial[] = [];
    const sent = new Set<string>();
    for (const call of c.calls) {
      const ws = call.args.workspaceId;
      const revision = call.args.expectedRevision;
      if (!isLayoutMutation(call.tool) || typeof ws !== "string" || !isDecimal(revision)) continue;
      const request = JSON.stringify([call.tool, call.args.retryEpoch, call.args.requestKey]);
      // A resend of a request already sent keeps its revision (AGENT-08's, or a plain duplicate).
      const resend = sent.has(request) || resendsLost(c, call);
      sent.add(request);
      if (resend) continue;
      const seen = shown.filter((s) => s.ws === ws && answeredBefore(s.call, call));
      const newest = seen.reduce<string | undefined>((n, s) => (n === undefined || newer(s.revision, n) ? s.revision : n), undefined);
      const since = changes.filter((x) => x.ws === ws && answeredBefore(x.call, call)).at(-1)?.call.index;
      const fresh = seen.filter((s) => since === undefined || s.call.index >= since);
      const what = `${call.tool} sent expectedRevision ${revision} for ${ws}`;
      if (newest === undefined) trials.push(undecided([call.index], `${what}, a workspace whose revision no reply had shown the agent`));
      else if (refused.some((r) => r.ws === ws && r.revision === revision && answeredBefore(r.call, call)))
        trials.push(broken([call.index], `${what}, which the broker had already refused as stale`));
      else if (newer(newest, revision))
        trials.push(
          broken(
            [
              ...seen
                .filter((s) => s.revision === newest)
                .map((s) => s.call.index)
                .slice(-1),
              call.index,
            ],
            `${what}, older than the domainRevision ${newest} it had been shown`,
          ),
        );
      else if (!fresh.some((s) => s.revision === revision))
        trials.push(broken([since!, call.index], `${what}, read before its own layout change at record ${since}: it did not refresh the layout`));
      else trials.push(kept([call.index], `${what}, the domainRevision it was last shown`));
    }
    return trials;
  },
};
