import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import type { IndexedCall } from "../../history/replies.js";
import { answeredBefore, walkData } from "../conduct.js";

const TARGETS = ["workspaceId", "projectId", "panelId"] as const;

/** AGENT-02: a target is an ID the agent was shown, never a display name it was shown. */
export const explicitIds: AgentCheck = {
  rule: "AGENT-02",
  none: "no call named a workspaceId, projectId or panelId",
  trials(c) {
    // Every ID, and every name or title of an object an ID identifies, each reply showed the agent.
    const shown: Array<{ value: string; id: boolean; call: IndexedCall }> = [];
    for (const call of c.calls)
      if (call.envelope?.status === "ok")
        walkData(call.envelope.data, (o) => {
          const own = TARGETS.filter((k) => typeof o[k] === "string");
          for (const k of own) shown.push({ value: o[k] as string, id: true, call });
          if (own.length > 0) for (const k of ["name", "title"]) if (typeof o[k] === "string") shown.push({ value: o[k] as string, id: false, call });
        });
    const trials: Trial[] = [];
    for (const call of c.calls) {
      const named = TARGETS.flatMap((k) => (typeof call.args[k] === "string" ? [[k, call.args[k]] as const] : []));
      if (named.length === 0) continue;
      const known = shown.filter((s) => answeredBefore(s.call, call));
      const ids = new Set(known.filter((s) => s.id).map((s) => s.value));
      const names = new Set(known.filter((s) => !s.id).map((s) => s.value));
      const asName = named.filter(([, v]) => names.has(v) && !ids.has(v));
      const unknown = named.filter(([, v]) => !ids.has(v) && !names.has(v));
      const text = (list: typeof named) => list.map(([k, v]) => `${k} "${v}"`).join(", ");
      if (asName.length > 0) trials.push(broken([call.index], `${call.tool} names ${text(asName)}: a display name Lomi showed the agent, in place of an ID`));
      else if (unknown.length > 0) trials.push(undecided([call.index], `${call.tool} names ${text(named)}, which no reply had shown the agent, as an ID or as a name`));
      else trials.push(kept([call.index], `${call.tool} names ${text(named)}, IDs the agent was shown`));
    }
    return trials;
  },
};
