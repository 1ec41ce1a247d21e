import { brokenByEnd, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { answered, callsAfter, type Conduct, type Shown } from "../conduct.js";
import { showsResourceOf } from "../resources.js";

/** Where the agent was first shown each operation outcome_unknown. */
export function firstUnknown(c: Conduct): Array<{ operationId: string; at: Shown }> {
  return [...c.shown].flatMap(([operationId, shown]) => {
    const at = shown.find((s) => s.state === "outcome_unknown");
    return at === undefined ? [] : [{ operationId, at }];
  });
}

/** Where the agent inspected the operation's actual resource after `from`: an answered observation of it in its workspace. */
export function inspectedAt(c: Conduct, operationId: string, from: Shown): number | undefined {
  const receipt = c.receipts.get(operationId);
  if (!receipt) return undefined;
  return callsAfter(c, from).find((x) => answered(x) && x.args.workspaceId === receipt.workspaceId && showsResourceOf(String(receipt.tool), x.tool))?.index;
}

/** AGENT-07: after outcome_unknown the agent inspects the actual resource. */
export const inspectsUnknown: AgentCheck = {
  rule: "AGENT-07",
  none: "no operation was shown to the agent outcome_unknown",
  trials(c) {
    return firstUnknown(c).map(({ operationId, at }): Trial => {
      const tool = String(c.receipts.get(operationId)?.tool);
      const inspected = inspectedAt(c, operationId, at);
      if (inspected !== undefined)
        return kept([at.index, inspected], `${operationId} (${tool}) read outcome_unknown; the agent inspected its resource at record ${inspected}`);
      if (callsAfter(c, at).length === 0) return undecided([at.index], `${operationId} read outcome_unknown in the agent's last call`);
      return brokenByEnd([at.index], `${operationId} (${tool}) read outcome_unknown, and the agent never inspected the actual resource`);
    });
  },
};
