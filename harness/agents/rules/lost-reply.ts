import { canonical } from "../../text/canonical-json.js";
import { broken, brokenByEnd, kept, undecided, type AgentCheck } from "../agent-check.js";
import { callsAfter, isKeyLookupOf, sameRequest } from "../conduct.js";

/** AGENT-08: after a lost reply, the entire original request (or a key lookup) before anything else of that tool there, and the outcome retrieved. */
export const lostReply: AgentCheck = {
  rule: "AGENT-08",
  none: "no operation call of the agent lost its reply",
  trials(c) {
    return c.lost.map(({ call: lost, retrievedAt }) => {
      const later = callsAfter(c, lost);
      const what = `${lost.tool} "${String(lost.args.requestKey)}" lost its reply`;
      const first = later.find(
        (x) => (x.tool === lost.tool && x.args.workspaceId === lost.args.workspaceId) || (x.tool === "lomi_operation_lookup" && x.args.tool === lost.tool),
      );
      if (first && !sameRequest(first, lost) && !isKeyLookupOf(first, lost)) {
        const changed = Object.keys({ ...lost.args, ...first.args }).filter((k) => canonical(lost.args[k]) !== canonical(first.args[k]));
        return broken(
          [lost.index, first.index],
          `${what}; the agent's next ${first.tool} changed ${first.tool === "lomi_operation_lookup" ? "the key it looked up" : "the request"} (${changed.join(", ")}) instead of sending the entire original request or looking it up by its key`,
        );
      }
      const retrieval = later.find((x) => x.index === retrievedAt);
      if (retrieval)
        return kept(
          [lost.index, retrieval.index],
          `${what}; the agent ${sameRequest(retrieval, lost) ? "resent the entire original request" : "looked it up by its key"} and was answered at record ${retrieval.index}`,
        );
      const attempts = later.filter((x) => sameRequest(x, lost) || isKeyLookupOf(x, lost));
      if (later.length === 0 || attempts.at(-1) === later.at(-1))
        return undecided([lost.index, ...attempts.map((x) => x.index)], `${what}; the history ends before the agent retrieved it`);
      return brokenByEnd(
        [lost.index, ...attempts.map((x) => x.index)],
        `${what}; the agent went on without retrieving its outcome (no answered resend or key lookup)`,
      );
    });
  },
};
