import type { History } from "../history/format.js";
import { outcomeUnknownAfterCrash } from "./crashes.js";
import { envelopes, rejectedInput } from "./envelope.js";
import { epochAuthority } from "./epochs.js";
import { effectsRequested, refusalsDispatchNothing } from "./effects.js";
import { eventsInOrder, eventsScoped } from "./events.js";
import { factsOf, type Facts } from "./facts.js";
import { idempotency } from "./idempotency.js";
import { inputOnce } from "./input.js";
import type { Oracle, Violation } from "./oracle.js";
import { effectStateAgrees, inputDeliveredOnce, oneEffectPerReceipt, reservedBeforeDispatch } from "./ledger.js";
import { pairingDecisions } from "./pairing.js";
import { pairingIsolation, receiptsReadable } from "./receipts.js";
import { transitions } from "./transitions.js";
import { oneAtATimePerTarget } from "./serialization.js";

/** Every oracle, those over the calls first, then those that need Lomi's ledger. */
export const ORACLES: readonly Oracle[] = [
  envelopes,
  rejectedInput,
  transitions,
  idempotency,
  receiptsReadable,
  pairingIsolation,
  pairingDecisions,
  outcomeUnknownAfterCrash,
  epochAuthority,
  eventsInOrder,
  eventsScoped,
  inputOnce,
  oneEffectPerReceipt,
  reservedBeforeDispatch,
  effectStateAgrees,
  inputDeliveredOnce,
  oneAtATimePerTarget,
  effectsRequested,
  refusalsDispatchNothing,
];

export type OracleVerdict =
  | { id: string; rules: string[]; title: string; verdict: "pass" }
  | { id: string; rules: string[]; title: string; verdict: "fail"; violations: Violation[] }
  | { id: string; rules: string[]; title: string; verdict: "not-applicable"; reason: string }
  /** The oracle itself failed on this history (the harness's fault): it judged nothing, and says why. */
  | { id: string; rules: string[]; title: string; verdict: "unknown"; error: string };

const errorText = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/**
 * Judges a history against every invariant. Pure: the same history gives the same verdicts. An
 * oracle that throws gives its own verdict "unknown" with the error, and every other verdict stands
 * (as Jepsen's checkers do): a fault of one checker never hides what the others found.
 */
export function checkHistory(history: History, oracles: readonly Oracle[] = ORACLES): OracleVerdict[] {
  let facts: Facts;
  try {
    facts = factsOf(history);
  } catch (error) {
    return oracles.map(({ id, rules, title }) => ({ id, rules, title, verdict: "unknown", error: `the history's facts could not be worked out: ${errorText(error)}` }));
  }
  return oracles.map(({ id, rules, title, needsLedger, check }): OracleVerdict => {
    if (needsLedger && history.ledger === undefined) return { id, rules, title, verdict: "not-applicable", reason: "the history carries no effect ledger (traffic recorded outside explore)" };
    let violations: Violation[];
    try {
      violations = check(facts);
    } catch (error) {
      return { id, rules, title, verdict: "unknown", error: errorText(error) };
    }
    return violations.length === 0 ? { id, rules, title, verdict: "pass" } : { id, rules, title, verdict: "fail", violations };
  });
}

export const failuresOf = (verdicts: readonly OracleVerdict[]) => verdicts.flatMap((v) => (v.verdict === "fail" ? [v] : []));
export const unknownsOf = (verdicts: readonly OracleVerdict[]) => verdicts.flatMap((v) => (v.verdict === "unknown" ? [v] : []));
