import { broken, kept, type AgentCheck, type Trial } from "../agent-check.js";

/** AGENT-09: a key lookup names the original anchor projectId when the connection has more than one approved project. */
export const lookupProject: AgentCheck = {
  rule: "AGENT-09",
  none: "the agent made no key lookup under an epoch of a connection with more than one approved project",
  trials(c) {
    const trials: Trial[] = [];
    const projects = new Map<string, number>();
    for (const call of c.calls) {
      if (
        call.tool === "lomi_connect" &&
        call.envelope?.status === "ok" &&
        typeof call.envelope.data.retryEpoch === "string" &&
        Array.isArray(call.envelope.data.projects)
      )
        projects.set(call.envelope.data.retryEpoch, call.envelope.data.projects.length);
      if (call.tool !== "lomi_operation_lookup" || (projects.get(String(call.args.retryEpoch)) ?? 0) < 2) continue;
      const original = c.calls.find(
        (x) =>
          x.tool === call.args.tool &&
          x.args.retryEpoch === call.args.retryEpoch &&
          x.args.requestKey === call.args.requestKey &&
          x.args.projectId !== undefined,
      );
      const anchor = original?.args.projectId;
      const ok = anchor === undefined ? call.args.projectId !== undefined : call.args.projectId === anchor;
      trials.push(
        ok
          ? kept([call.index], `the key lookup named projectId ${String(call.args.projectId)}`)
          : broken(
              [...(original ? [original.index] : []), call.index],
              `the key lookup of ${String(call.args.tool)} "${String(call.args.requestKey)}" ${call.args.projectId === undefined ? "named no projectId" : `named projectId ${String(call.args.projectId)}`}, under an epoch of a connection with ${projects.get(String(call.args.retryEpoch))} approved projects${anchor === undefined ? "" : `; the original request's anchor is ${String(anchor)}`}`,
            ),
      );
    }
    return trials;
  },
};
