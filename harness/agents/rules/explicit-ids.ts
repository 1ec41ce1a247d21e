import { broken, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { getOrInsert } from "../../map-entry.js";
import { walkData } from "../conduct.js";

/** Values replies showed, counted overall and per concurrent mark. */
class Shown {
  private readonly all = new Map<string, number>();
  private readonly byMark = new Map<string, Map<string, number>>();
  add(value: string, mark: string | undefined): void {
    this.all.set(value, (this.all.get(value) ?? 0) + 1);
    if (mark !== undefined) {
      const counts = getOrInsert(this.byMark, mark, () => new Map<string, number>());
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  }
  /** Shown by a reply that reached the agent before a call of this mark was sent: not only by calls in flight with it. */
  before(value: string, mark: string | undefined): boolean {
    return (this.all.get(value) ?? 0) > (mark === undefined ? 0 : (this.byMark.get(mark)?.get(value) ?? 0));
  }
}

const TARGETS = ["workspaceId", "projectId", "panelId"] as const;

/** AGENT-02: a target is an ID the agent was shown, never a display name it was shown. */
export const explicitIds: AgentCheck = {
  rule: "AGENT-02",
  none: "no call named a workspaceId, projectId or panelId",
  trials(c) {
    // Every ID, and every name or title of an object an ID identifies, the replies showed the agent so far,
    // counted, with the counts of each concurrent mark: what calls in flight with a call showed it had not seen yet.
    const ids = new Shown();
    const names = new Shown();
    const trials: Trial[] = [];
    for (const call of c.calls) {
      const named = TARGETS.flatMap((k) => (typeof call.args[k] === "string" ? [[k, call.args[k]] as const] : []));
      const isId = (v: string) => ids.before(v, call.concurrent);
      const asName = named.filter(([, v]) => names.before(v, call.concurrent) && !isId(v));
      const unknown = named.filter(([, v]) => !isId(v) && !names.before(v, call.concurrent));
      if (call.envelope?.status === "ok")
        walkData(call.envelope.data, (o) => {
          const own = TARGETS.filter((k) => typeof o[k] === "string");
          for (const k of own) ids.add(o[k] as string, call.concurrent);
          if (own.length > 0) for (const k of ["name", "title"]) if (typeof o[k] === "string") names.add(o[k] as string, call.concurrent);
        });
      if (named.length === 0) continue;
      const text = (list: typeof named) => list.map(([k, v]) => `${k} "${v}"`).join(", ");
      if (asName.length > 0) trials.push(broken([call.index], `${call.tool} names ${text(asName)}: a display name Lomi showed the agent, in place of an ID`));
      else if (unknown.length > 0)
        trials.push(undecided([call.index], `${call.tool} names ${text(named)}, which no reply had shown the agent, as an ID or as a name`));
      else trials.push(kept([call.index], `${call.tool} names ${text(named)}, IDs the agent was shown`));
    }
    return trials;
  },
};
