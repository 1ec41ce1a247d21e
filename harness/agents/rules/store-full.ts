import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { callsAfter, errorCodeOf } from "../conduct.js";

/** AGENT-14: after RESOURCE_EXHAUSTED, no lomi_connect before a reconciliation completes. */
export const storeFull: AgentCheck = {
  rule: "AGENT-14",
  none: "the agent was never answered RESOURCE_EXHAUSTED",
  trials(c) {
    const trials: Trial[] = [];
    let open = false;
    for (const call of c.calls) {
      if (call.tool === "lomi_store_reconcile" && call.envelope?.status === "ok" && call.envelope.data.status === "completed") open = false;
      // One full store until a reconciliation completes: the refusals in between are one situation.
      if (errorCodeOf(call) !== "RESOURCE_EXHAUSTED" || open) continue;
      open = true;
      const later = callsAfter(c, call);
      const reconciled = later.find((x) => x.tool === "lomi_store_reconcile" && x.envelope?.status === "ok" && x.envelope.data.status === "completed");
      const reconnect = later.find((x) => x.tool === "lomi_connect" && (reconciled === undefined || x.index < reconciled.index));
      if (reconnect)
        trials.push(
          broken(
            [call.index, reconnect.index],
            `${call.tool} was answered RESOURCE_EXHAUSTED, and the agent called lomi_connect${reconciled ? ` before its reconciliation completed (record ${reconciled.index})` : " with no reconciliation"}: reconnecting does not clear history`,
          ),
        );
      else if (later.length > 0)
        trials.push(
          kept(
            [call.index, ...(reconciled ? [reconciled.index] : [])],
            `${call.tool} was answered RESOURCE_EXHAUSTED; the agent ${reconciled ? `reconciled (record ${reconciled.index})` : "did not reconnect"}`,
          ),
        );
      else trials.push(undecided([call.index], `${call.tool} was answered RESOURCE_EXHAUSTED in the agent's last call`));
    }
    return trials;
  },
};
