import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { walkData } from "../conduct.js";

const TARGETS = ["workspaceId", "projectId", "panelId"] as const;

/** AGENT-02: a target is an ID the agent was shown, never a display name it was shown. */
export const explicitIds: AgentCheck = {
  rule: "AGENT-02",
  none: "no call named a workspaceId, projectId or panelId",
  trials(c) {
    const trials: Trial[] = [];
    const ids = new Set<string>();
    const names = new Set<string>();
    for (const call of c.calls) {
      const named = TARGETS.flatMap((k) => (typeof call.args[k] === "string" ? [[k, call.args[k]] as const] : []));
      if (named.length > 0) {
        const asName = named.filter(([, v]) => names.has(v) && !ids.has(v));
        const unknown = named.filter(([, v]) => !ids.has(v) && !names.has(v));
        const shown = named.map(([k, v]) => `${k} "${v}"`).join(", ");
        if (asName.length > 0) trials.push(broken([call.index], `${call.tool} names ${asName.map(([k, v]) => `${k} "${v}"`).join(", ")}: a display name Lomi showed the agent, in place of an ID`));
        else if (unknown.length > 0) trials.push(undecided([call.index], `${call.tool} names ${shown}, which no reply had shown the agent, as an ID or as a name`));
        else trials.push(kept([call.index], `${call.tool} names ${shown}, IDs the agent was shown`));
      }
      // What the reply shows the agent: IDs, and the names and titles of the objects they identify.
      if (call.envelope?.status === "ok")
        walkData(call.envelope.data, (o) => {
          const own = TARGETS.filter((k) => typeof o[k] === "string");
          for (const k of own) ids.add(o[k] as string);
          if (own.length > 0) for (const k of ["name", "title"]) if (typeof o[k] === "string") names.add(o[k] as string);
        });
    }
    return trials;
  },
};
