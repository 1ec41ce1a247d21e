import { canReach, isSettled, type OperationState } from "../../protocol/states.js";
import type { Sighting } from "./facts.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { crashBetween } from "./finding-rules.js";

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
  check({ sightings, crashes }) {
    const found: Violation[] = [];
    for (const [operationId, all] of sightings) {
      const receipts = all.filter((s) => s.via === "receipt");
      const seen = new Map<OperationState, Sighting>();
      let settled: Sighting | undefined;
      const together = (a: Sighting, b: Sighting) => a.concurrent !== undefined && a.concurrent === b.concurrent;
      for (const s of receipts) {
        if (settled && !together(settled, s) && (s.state !== settled.state || s.effectState !== settled.effectState)) {
          // Settled is final (OP-02); the finding also names the rule of the settled state it changed.
          const rules = [
            "OP-02",
            ...(settled.state === "outcome_unknown" ? ["DUR-04"] : []),
            ...(s.state === "cancelled" ? ["CANCEL-03"] : []),
            ...(crashBetween(crashes, settled.index, s.index) ? ["DUR-02"] : []),
          ];
          found.push({
            message: `${operationId} read ${settled.state} (effectState ${settled.effectState}), a settled state, then ${s.state} (effectState ${s.effectState})`,
            records: [settled.index, s.index],
            rules,
          });
          break;
        }
        for (const [earlier, first] of seen) {
          if (!together(first, s) && !mayFollow(earlier, s.state)) {
            found.push({
              message: `${operationId} read ${earlier}, then ${s.state}: no legal transitions lead from ${earlier} to ${s.state}`,
              records: [first.index, s.index],
              rules: ["OP-02"],
            });
          }
        }
        if (!seen.has(s.state)) seen.set(s.state, s);
        if (isSettled(s.state)) settled ??= s;
      }
    }
    return found;
  },
  /**
   * Each operation read again after a first read (OP-02); read again after it read settled: across a
   * crash (DUR-02), after outcome_unknown (DUR-04), by a cancel or after one (CANCEL-03).
   */
  triggers({ sightings, crashes, calls }) {
    const tally = new Tally();
    for (const [operationId, all] of sightings) {
      const receipts = all.filter((s) => s.via === "receipt");
      if (receipts.length >= 2) tally.add("OP-02");
      const settled = receipts.find((s) => isSettled(s.state));
      const later = settled && receipts.filter((s) => s.index > settled.index);
      if (!settled || !later || later.length === 0) continue;
      if (crashes.some((c) => c > settled.index && later.some((s) => s.index > c))) tally.add("DUR-02");
      if (settled.state === "outcome_unknown") tally.add("DUR-04");
      if (calls.some((c) => c.tool === "lomi_operation_cancel" && c.args.operationId === operationId && c.index > settled.index)) tally.add("CANCEL-03");
    }
    return tally.triggers;
  },
};
