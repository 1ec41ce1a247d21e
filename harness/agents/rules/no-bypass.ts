import { isOperationTool, type IndexedCall } from "../../history/replies.js";
import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { callsAfter, errorCodeOf, identityOf, requestOf, type Conduct } from "../conduct.js";
import { firstUnknown, inspectedAt } from "./inspect-unknown.js";

const DENIALS = new Set(["USER_DENIED", "PERMISSION_DENIED"]);

/** A time the agent had a reason to keep its key: the request, the reply it arose in, until when (never ending for a denial), and what it was. */
interface Reason {
  request: IndexedCall;
  at: { index: number; concurrent?: string | undefined };
  until: number;
  what: string;
}

function reasons(c: Conduct): Reason[] {
  const out: Reason[] = [];
  for (const lost of c.lost)
    out.push({
      request: lost.call,
      at: lost.call,
      until: lost.retrievedAt ?? Number.POSITIVE_INFINITY,
      what: `its reply was lost at record ${lost.call.index}`,
    });
  for (const { operationId, at } of firstUnknown(c)) {
    const request = c.admissions.get(operationId);
    if (request)
      out.push({
        request,
        at,
        until: inspectedAt(c, operationId, at) ?? Number.POSITIVE_INFINITY,
        what: `${operationId} read outcome_unknown at record ${at.index}`,
      });
  }
  for (const call of c.calls) {
    if (!isOperationTool(call.tool)) continue;
    const code = errorCodeOf(call);
    if (code !== undefined && DENIALS.has(code))
      out.push({ request: call, at: call, until: Number.POSITIVE_INFINITY, what: `it was refused ${code} at record ${call.index}` });
  }
  for (const [operationId, shown] of c.shown) {
    const request = c.admissions.get(operationId);
    const receipt = c.receipts.get(operationId);
    const error = receipt?.error as { code?: unknown } | null | undefined;
    const denied = shown.find((s) => s.state === "failed");
    if (request && denied && typeof error?.code === "string" && DENIALS.has(error.code))
      out.push({ request, at: denied, until: Number.POSITIVE_INFINITY, what: `${operationId} was denied (${error.code}) at record ${denied.index}` });
  }
  return out;
}

/** AGENT-11: never the same request under a new key while its outcome is uncertain, or after a denial. */
export const noBypass: AgentCheck = {
  rule: "AGENT-11",
  none: "no operation of the agent lost its reply, read outcome_unknown or was denied",
  trials(c) {
    return reasons(c).map((r): Trial => {
      const what = `${r.request.tool} "${String(r.request.args.requestKey)}": ${r.what}`;
      const later = callsAfter(c, r.at);
      const bypass = later.find(
        (x) => x.index < r.until && x.tool === r.request.tool && requestOf(x) === requestOf(r.request) && identityOf(x) !== identityOf(r.request),
      );
      if (bypass)
        return broken(
          [r.at.index, bypass.index],
          `${what}; the agent sent the same request under a new key (requestKey ${JSON.stringify(bypass.args.requestKey)}, retryEpoch ${JSON.stringify(bypass.args.retryEpoch)}) ${r.until === Number.POSITIVE_INFINITY ? "" : "before the outcome was understood"}`.trimEnd(),
        );
      return later.length === 0
        ? undecided([r.at.index], `${what}; the agent made no later call`)
        : kept([r.at.index], `${what}; the agent kept the request's key`);
    });
  },
};
