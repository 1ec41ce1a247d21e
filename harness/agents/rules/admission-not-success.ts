import { isSettled } from "../../../protocol/states.js";
import { broken, kept, type AgentCheck, type Trial } from "../agent-check.js";
import { answeredBefore, identityOf, shownSettled, targetOf, type Conduct } from "../conduct.js";

/** The operations admitted to the agent unsettled (their admission did not already show them settled), with their admitting call. */
export function admittedUnsettled(c: Conduct) {
  return [...c.admissions].filter(([operationId, a]) => !c.shown.get(operationId)?.some((s) => s.index === a.index && isSettled(s.state)));
}

/** AGENT-01: an admission is not the effect; nothing more on a target until what was admitted there is shown settled. */
export const admissionNotSuccess: AgentCheck = {
  rule: "AGENT-01",
  none: "the agent sent no operation on a target where an earlier one was admitted to it unsettled",
  trials(c) {
    const trials: Trial[] = [];
    const unsettled = admittedUnsettled(c);
    for (const call of c.calls) {
      const target = targetOf(call);
      if (target === undefined) continue;
      // A resend under the same identity is the same operation, not a further one.
      const earlier = unsettled.filter(([, a]) => answeredBefore(a, call) && targetOf(a) === target && identityOf(a) !== identityOf(call));
      if (earlier.length === 0) continue;
      const unconfirmed = earlier.filter(([operationId, a]) => shownSettled(c, operationId, a.index, call) === undefined);
      trials.push(
        unconfirmed.length === 0
          ? kept([call.index], `${call.tool} waited until ${earlier.map(([id]) => id).join(", ")} on its target was shown settled`)
          : broken(
              [...unconfirmed.map(([, a]) => a.index), call.index],
              `${call.tool} "${String(call.args.requestKey)}" was sent while ${unconfirmed.map(([id]) => id).join(", ")} on the same target had only been admitted, never shown settled: the admission was taken for the effect`,
            ),
      );
    }
    return trials;
  },
};
