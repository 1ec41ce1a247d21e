import type { Facts } from "./facts.js";

/** One broken promise, with the history records (by position) that show it. */
export interface Violation {
  message: string;
  records: number[];
  /** The rules this finding breaks: some of its oracle's, chosen by what was found (docs/spec.md, "What each finding blames"). */
  rules: string[];
}

/**
 * How many times each rule's situation arose in a history (a retry of a known identity, a read across
 * a crash, an empty events page followed by a read…): a rule whose situation never arose was not
 * judged, and reads "not exercised", never pass (docs/explore.md, "Triggers").
 */
export type Triggers = Readonly<Record<string, number>>;

/** Counts triggers as an oracle walks a history. */
export class Tally {
  private readonly counts: Record<string, number> = {};
  /** One more time each of these rules' situations arose. */
  add(rules: string | readonly string[], times = 1): void {
    if (times <= 0) return;
    for (const id of typeof rules === "string" ? [rules] : rules) this.counts[id] = (this.counts[id] ?? 0) + times;
  }
  get triggers(): Triggers {
    return { ...this.counts };
  }
}

/** A property every legal history has. `needsLedger`: judged only when the history carries Lomi's ledger. */
export interface Oracle {
  id: string;
  /** The rules of docs/spec.md it makes checkable: each of its findings blames some of them. */
  rules: string[];
  title: string;
  needsLedger: boolean;
  check(facts: Facts): Violation[];
  /** Per rule of its own, how many times the history gave it something to judge. */
  triggers(facts: Facts): Triggers;
}
