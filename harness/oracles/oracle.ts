import type { Facts } from "./facts.js";

/** One broken promise, with the history records (by position) that show it. */
export interface Violation {
  message: string;
  records: number[];
}

/** A property every legal history has. `needsLedger`: judged only when the history carries Lomi's ledger. */
export interface Oracle {
  id: string;
  /** The rules of docs/spec.md it makes checkable. */
  rules: string[];
  title: string;
  needsLedger: boolean;
  check(facts: Facts): Violation[];
}
