import { SETTLED_STATES, TRANSITIONS, type OperationState } from "../../protocol/states.js";
import type { Sighting } from "./facts.js";
import type { Oracle, Violation } from "./oracle.js";

/** States reachable from each state through legal transitions, itself included. */
const REACHABLE: ReadonlyMap<OperationState, ReadonlySet<OperationState>> = new Map(
  (Object.keys(TRANSITIONS) as OperationState[]).map((from) => {
    const seen = new Set<OperationState>([from]);
    const todo = [from];
    while (todo.length > 0) for (const next of TRANSITIONS[todo.pop()!]) if (!seen.has(next)) todo.push(next), seen.add(next);
    return [from, seen];
  }),
);
const isSettled = (s: OperationState) => (SETTLED_STATES as readonly string[]).includes(s);

/**
 * Receipts read one after another show a path through the legal transitions (reads may skip states:
 * queued then succeeded is a path), and a settled state, with its effectState, never changes.
 * Events are history, not the current state, so they are judged by the events invariant instead.
 */
export const transitions: Oracle = {
  id: "legal-transitions",
  rules: ["OP-02", "DUR-02", "DUR-04", "CANCEL-03"],
  title: "only legal transitions; settled states are final",
  needsLedger: false,
  check({ sightings }) {
    const found: Violation[] = [];
    for (const [operationId, all] of sightings) {
      const receipts = all.filter((s) => s.via === "receipt");
      const seen = new Map<OperationState, Sighting>();
      let settled: Sighting | undefined;
      const together = (a: Sighting, b: Sighting) => a.concurrent !== undefined && a.concurrent === b.concurrent;
      for (const s of receipts) {
        if (settled && !together(settled, s) && (s.state !== settled.state || s.effectState !== settled.effectState)) {
          found.push({ message: `${operationId} read ${settled.state} (effectState ${settled.effectState}), a settled state, then ${s.state} (effectState ${s.effectState})`, records: [settled.index, s.index] });
          break;
        }
        for (const [earlier, first] of seen) {
          if (!together(first, s) && !REACHABLE.get(earlier)!.has(s.state)) {
            found.push({ message: `${operationId} read ${earlier}, then ${s.state}: no legal transitions lead from ${earlier} to ${s.state}`, records: [first.index, s.index] });
          }
        }
        if (!seen.has(s.state)) seen.set(s.state, s);
        if (isSettled(s.state)) settled ??= s;
      }
    }
    return found;
  },
};
