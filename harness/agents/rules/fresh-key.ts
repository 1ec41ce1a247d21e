import { isOperationTool } from "../../history/replies.js";
import { canonical } from "../../text/canonical-json.js";
import { broken, kept, type AgentCheck, type Trial } from "../agent-check.js";
import { identityOf, resendsLost } from "../conduct.js";

/** AGENT-10: a different operation uses a fresh key: never other arguments under an identity already used. */
export const freshKey: AgentCheck = {
  rule: "AGENT-10",
  none: "the agent sent no operation",
  trials(c) {
    const trials: Trial[] = [];
    for (const call of c.calls) {
      if (!isOperationTool(call.tool) || resendsLost(c, call)) continue;
      const reused = c.calls.find((x) => x.index < call.index && identityOf(x) === identityOf(call) && canonical(x.args) !== canonical(call.args));
      trials.push(reused ? broken([reused.index, call.index], `${call.tool} "${String(call.args.requestKey)}" was sent with other arguments under a retry identity the agent had used at record ${reused.index}: a different operation needs a fresh key`) : kept([call.index], `${call.tool} "${String(call.args.requestKey)}" under a retry identity of its own`));
    }
    return trials;
  },
};
