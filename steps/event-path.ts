import { ADMISSION_STATES, canTransition, type OperationState } from "../protocol/states.js";

export interface PathEvent {
  sequence: string;
  previousState: OperationState | null;
  state: OperationState;
  effectState: string;
}

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
 * Why one operation's events are not a path the rules allow, or [] when they are. Legality, not
 * the reference broker's path: any admission state to start, then only transitions of
 * protocol/states.ts, each once, each naming the state before it (EVT-01, OP-02).
 */
export function eventPathProblems(events: readonly PathEvent[], demand: PathDemand): string[] {
  const first = events[0];
  if (!first) return [`no event shows the operation at all; it reached ${demand.reaches}`];
  const problems: string[] = [];
  if (first.previousState !== null || !ADMISSION_STATES.includes(first.state)) {
    problems.push(`its first event (${first.sequence}) must show admission (previousState null, state ${ADMISSION_STATES.join(" or ")}), not ${first.previousState} → ${first.state}`);
  }
  events.forEach((e, i) => {
    const before = events[i - 1];
    if (!before) return;
    if (e.previousState !== before.state) problems.push(`event ${e.sequence} says previousState ${e.previousState}, the feed's previous event showed ${before.state}`);
    const effectOnly = e.state === before.state && e.effectState !== before.effectState;
    if (!effectOnly && !canTransition(before.state, e.state)) problems.push(`event ${e.sequence} shows ${before.state} → ${e.state}, not a legal transition (shown twice, or out of order)`);
  });
  const states = events.map((e) => e.state);
  const last = events.at(-1)!;
  if (last.state !== demand.reaches) problems.push(`its last event shows ${last.state}, expected it to reach ${demand.reaches}`);
  if (demand.from !== undefined && last.previousState !== demand.from) problems.push(`it reached ${last.state} from ${last.previousState}, expected from ${demand.from}`);
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
  return problems;
}
