import { isOperationTool } from "../../history/replies.js";
import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { callsAfter, errorCodeOf, resendsLost } from "../conduct.js";

/** AGENT-12: an epoch refused RETRY_EPOCH_INVALID grants nothing new: later submissions use another. */
export const refusedEpoch: AgentCheck = {
  rule: "AGENT-12",
  none: "no operation call of the agent was refused RETRY_EPOCH_INVALID",
  trials(c) {
    const trials: Trial[] = [];
    const judged = new Set<unknown>();
    for (const refused of c.calls) {
      const epoch = refused.args.retryEpoch;
      if (!isOperationTool(refused.tool) || errorCodeOf(refused) !== "RETRY_EPOCH_INVALID" || judged.has(epoch)) continue;
      judged.add(epoch);
      const submissions = callsAfter(c, refused).filter((x) => isOperationTool(x.tool) && !resendsLost(c, x));
      const again = submissions.find((x) => x.args.retryEpoch === epoch);
      if (again)
        trials.push(
          broken(
            [refused.index, again.index],
            `retry epoch ${String(epoch)} was refused RETRY_EPOCH_INVALID at record ${refused.index}, and the agent submitted ${again.tool} "${String(again.args.requestKey)}" under it again`,
          ),
        );
      else if (submissions.length > 0)
        trials.push(kept([refused.index, submissions[0]!.index], `after retry epoch ${String(epoch)} was refused, the agent submitted under another`));
      else trials.push(undecided([refused.index], `retry epoch ${String(epoch)} was refused; the agent submitted nothing more`));
    }
    return trials;
  },
};
