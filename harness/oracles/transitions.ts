import { canReach, isSettled, type OperationState } from "../../protocol/states.js";
import type { Sighting } from "./facts.js";
import type { Oracle, Violation } from "./oracle.js";

/** Whether reads may show `to` after `from`: the same state, or one legal transitions lead to (protocol/states.ts). */
const mayFollow = (from: OperationState, to: OperationState) => from === to || canReach(from, to);

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
          if (!together(first, s) && !mayFollow(earlier, s.state)) {
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
