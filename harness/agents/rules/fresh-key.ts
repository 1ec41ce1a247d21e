import { isOperationTool } from "../../history/replies.js";
import { broken, kept, type AgentCheck, type Trial } from "../agent-check.js";
import { getOrInsert } from "../../map-entry.js";
import { argsOf, identityOf, resendsLost } from "../conduct.js";

/** AGENT-10: a different operation uses a fresh key: never other arguments under an identity already used. */
export const freshKey: AgentCheck = {
  rule: "AGENT-10",
  none: "the agent sent no operation",
  trials(c) {
    const trials: Trial[] = [];
    // Each retry identity the agent sent, with the arguments of each call under it so far.
    const sent = new Map<string, Array<{ index: number; args: string }>>();
    for (const call of c.calls) {
      if (!isOperationTool(call.tool)) continue;
      const identity = identityOf(call);
      const args = argsOf(call);
      const before = getOrInsert(sent, identity, () => []);
      const reused = before.find((x) => x.args !== args);
      before.push({ index: call.index, args });
      if (resendsLost(c, call)) continue;
      trials.push(
        reused
          ? broken(
              [reused.index, call.index],
              `${call.tool} "${String(call.args.requestKey)}" was sent with other arguments under a retry identity the agent had used at record ${reused.index}: a different operation needs a fresh key`,
            )
          : kept([call.index], `${call.tool} "${String(call.args.requestKey)}" under a retry identity of its own`),
      );
    }
    return trials;
  },
};
