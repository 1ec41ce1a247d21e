import { contractOf } from "../../../protocol/catalogue.js";
import { broken, kept, type AgentCheck, type Trial } from "../agent-check.js";

/** The common fields: the durable request identity, as SCH-02 names them. */
const COMMON_FIELDS = ["retryEpoch", "requestKey"] as const;

/** AGENT-03: no common field on a tool that does not declare it. */
export const commonFields: AgentCheck = {
  rule: "AGENT-03",
  none: "the agent called no tool that lacks retryEpoch or requestKey",
  trials(c) {
    const trials: Trial[] = [];
    for (const call of c.calls) {
      const declared = contractOf(call.tool)?.input.shape;
      if (!declared) continue;
      const lacks = COMMON_FIELDS.filter((k) => !(k in declared));
      if (lacks.length === 0) continue;
      const added = lacks.filter((k) => k in call.args);
      trials.push(
        added.length === 0
          ? kept([call.index], `${call.tool} without ${lacks.join(" or ")}`)
          : broken([call.index], `${call.tool} was sent ${added.join(" and ")}, which it does not take`),
      );
    }
    return trials;
  },
};
