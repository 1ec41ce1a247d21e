import { z } from "zod";
import { isOneOf } from "./closed-lists.js";

export const OPERATION_STATES = ["queued", "awaiting_user", "running", "cancelling", "succeeded", "failed", "cancelled", "outcome_unknown"] as const;
export type OperationState = (typeof OPERATION_STATES)[number];
export const operationStateSchema = z.enum(OPERATION_STATES);

export const EFFECT_STATES = ["none", "partial", "complete", "unknown"] as const;
export type EffectState = (typeof EFFECT_STATES)[number];
export const effectStateSchema = z.enum(EFFECT_STATES);

export const SETTLED_STATES = ["succeeded", "failed", "cancelled", "outcome_unknown"] as const;
export type SettledState = (typeof SETTLED_STATES)[number];

export function isSettled(state: string): state is SettledState {
  return isOneOf(SETTLED_STATES, state);
}

/**
 * The legal transitions. Settled states have none: they are final.
 * Every unfinished state may become outcome_unknown (store reopened, effect unknowable).
 */
export const TRANSITIONS: Readonly<Record<OperationState, readonly OperationState[]>> = {
  queued: ["running", "awaiting_user", "cancelled", "failed", "outcome_unknown"],
  awaiting_user: ["running", "cancelling", "cancelled", "failed", "outcome_unknown"],
  running: ["awaiting_user", "cancelling", "succeeded", "failed", "outcome_unknown"],
  cancelling: ["cancelled", "succeeded", "failed", "outcome_unknown"],
  succeeded: [],
  failed: [],
  cancelled: [],
  outcome_unknown: [],
};

export function canTransition(from: OperationState, to: OperationState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** States an operation may be admitted in: not settled, and not cancelling (nobody asked yet). */
export const ADMISSION_STATES: readonly OperationState[] = ["queued", "awaiting_user", "running"];

/** The states one or more legal transitions lead to from each state, found once: the oracles ask for every pair of reads. */
const REACHABLE: ReadonlyMap<OperationState, ReadonlySet<OperationState>> = new Map(
  OPERATION_STATES.map((from) => {
    const seen = new Set<OperationState>();
    const frontier = [...TRANSITIONS[from]];
    for (let next = frontier.pop(); next !== undefined; next = frontier.pop()) {
      if (seen.has(next)) continue;
      seen.add(next);
      frontier.push(...TRANSITIONS[next]);
    }
    return [from, seen];
  }),
);

/** Whether `to` lies one or more legal transitions after `from`. */
export function canReach(from: OperationState, to: OperationState): boolean {
  return REACHABLE.get(from)!.has(to);
}
