import { nextEventProblem, type EventProblem, type FeedEvent } from "../harness/oracles/events.js";
import type { OperationState } from "../protocol/states.js";

export type PathEvent = FeedEvent;

/** What a scenario demands of one operation's events beyond legality. */
export interface PathDemand {
  /** The state the path must end in. */
  reaches: OperationState;
  /** States the path must visit in this order (others may come between). */
  through?: readonly OperationState[];
  /** The state the last transition must leave. */
  from?: OperationState;
  /** States the agent's receipt reads showed: each is a transition the feed must show. */
  observed?: readonly OperationState[];
}

/**
 * Why one operation's events are not a path the rules allow (its legality, judged by the events
 * oracle's own rule: EVT-01, OP-02), and why they are not what the scenario demands, each [] when
 * all is well. Never the reference broker's exact path.
 */
export function eventPathProblems(events: readonly PathEvent[], demand: PathDemand): { illegal: EventProblem[]; unmet: string[] } {
  if (events.length === 0) return { illegal: [], unmet: [`no event shows the operation at all; it reached ${demand.reaches}`] };
  const illegal = events.flatMap((e, i) => nextEventProblem(events[i - 1], e) ?? []);
  const problems: string[] = [];
  const states = events.map((e) => e.state);
  const last = events.at(-1)!;
  if (last.state !== demand.reaches) problems.push(`its last event shows ${last.state}, expected it to reach ${demand.reaches}`);
  if (demand.from !== undefined && last.previousState !== demand.from)
    problems.push(`it reached ${last.state} from ${last.previousState}, expected from ${demand.from}`);
  let at = 0;
  for (const wanted of demand.through ?? []) {
    const found = states.indexOf(wanted, at);
    if (found < 0) {
      problems.push(`it must pass through ${(demand.through ?? []).join(", ")} in that order; ${wanted} is missing${at > 0 ? ` after ${states[at - 1]}` : ""}`);
      break;
    }
    at = found + 1;
  }
  for (const seen of new Set(demand.observed ?? [])) {
    if (!states.includes(seen)) problems.push(`a receipt read showed ${seen}, but no event shows that transition`);
  }
  return { illegal, unmet: problems };
}
