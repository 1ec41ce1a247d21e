import type { Conduct } from "./conduct.js";

/**
 * One time an agent rule's situation arose in a history, and what the agent did: kept the rule,
 * broke it, or left it undecided (the history ends before it shows which).
 */
export interface Trial {
  outcome: "kept" | "broken" | "undecided";
  /** The records (by position) that show the situation and what the agent did. */
  records: number[];
  message: string;
  /**
   * Decided by where the history ends ("never shown settled", "never retrieved"): a history still
   * growing (record --live) may yet show the agent keep it, so such a breach is told only at the end.
   */
  atEnd?: true;
}

/** How one agent rule reads a history: every time its situation arose, with what the agent did. */
export interface AgentCheck {
  rule: string;
  /** Why the rule is "not exercised" when its situation never arose, in a phrase ("no operation call lost its reply"). */
  none: string;
  trials(conduct: Conduct): Trial[];
}

export const kept = (records: number[], message: string): Trial => ({ outcome: "kept", records, message });
export const broken = (records: number[], message: string): Trial => ({ outcome: "broken", records, message });
/** A breach decided by the end of the history: the agent went on, or ended, without doing what the rule asks. */
export const brokenByEnd = (records: number[], message: string): Trial => ({ outcome: "broken", records, message, atEnd: true });
export const undecided = (records: number[], message: string): Trial => ({ outcome: "undecided", records, message });
