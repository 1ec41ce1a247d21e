import type { Facts } from "./facts.js";

/** One broken promise, with the history records (by position) that show it. */
export interface Violation {
  message: string;
  records: number[];
  /** The rules this finding breaks: some of its oracle's, chosen by what was found (docs/spec.md, "What each finding blames"). */
  rules: string[];
}

/** A property every legal history has. `needsLedger`: judged only when the history carries Lomi's ledger. */
export interface Oracle {
  id: string;
  /** The rules of docs/spec.md it makes checkable: each of its findings blames some of them. */
  rules: string[];
  title: string;
  needsLedger: boolean;
  check(facts: Facts): Violation[];
}
