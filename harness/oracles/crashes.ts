import { isSettled } from "../../protocol/states.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";

/**
 * outcome_unknown comes only from reopening the store: the operation was unfinished at a crash (not
 * yet seen settled before it), and its effectState reads unknown.
 */
export const outcomeUnknownAfterCrash: Oracle = {
  id: "outcome-unknown-after-crash",
  rules: ["DUR-01", "DUR-02"],
  title: "outcome_unknown only for operations unfinished at a crash",
  needsLedger: false,
  check({ sightings, crashes, owners }) {
    const found: Violation[] = [];
    for (const [operationId, all] of sightings) {
      const receipts = all.filter((s) => s.via === "receipt");
      const unknown = receipts.find((s) => s.state === "outcome_unknown");
      if (!unknown) continue;
      if (unknown.effectState !== "unknown")
        found.push({
          message: `${operationId} reads outcome_unknown with effectState ${unknown.effectState}; it must be unknown`,
          records: [unknown.index],
          rules: ["DUR-01"],
        });
      const born = Math.min(owners.get(operationId)?.index ?? unknown.index, receipts[0]!.index);
      const settledBefore = (crash: number) =>
        receipts.some((s) => s.index < crash && s.state !== "outcome_unknown" && ["succeeded", "failed", "cancelled"].includes(s.state));
      const crash = crashes.find((c) => c < unknown.index && (c > born || born === unknown.index) && !settledBefore(c));
      if (crash === undefined) {
        const lastBefore = receipts.filter((s) => s.index < unknown.index).at(-1);
        // Read settled before a crash, then outcome_unknown: a settled receipt changed across it (DUR-02).
        const changedByCrash = crashes.some((c) => c < unknown.index && settledBefore(c));
        found.push({
          message: `${operationId} reads outcome_unknown with no broker crash while it was unfinished${lastBefore ? ` (it last read ${lastBefore.state})` : ""}`,
          records: [...(lastBefore ? [lastBefore.index] : []), unknown.index],
          rules: [changedByCrash ? "DUR-02" : "DUR-01"],
        });
      }
    }
    return found;
  },
  /**
   * Each operation read on both sides of a crash: unfinished before it (DUR-01, what must read
   * outcome_unknown) or settled before it (DUR-02, what must stay); and each outcome_unknown read (DUR-01).
   */
  triggers({ sightings, crashes }) {
    const tally = new Tally();
    for (const all of sightings.values()) {
      const receipts = all.filter((s) => s.via === "receipt");
      tally.add("DUR-01", receipts.filter((s) => s.state === "outcome_unknown").length);
      for (const crash of crashes) {
        const before = receipts.filter((s) => s.index < crash).at(-1);
        if (before && receipts.some((s) => s.index > crash)) tally.add(isSettled(before.state) ? "DUR-02" : "DUR-01");
      }
    }
    return tally.triggers;
  },
};
