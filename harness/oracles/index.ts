import type { History } from "../history/format.js";
import { outcomeUnknownAfterCrash } from "./crashes.js";
import { envelopes, rejectedInput } from "./envelope.js";
import { epochAuthority } from "./epochs.js";
import { effectsRequested, refusalsDispatchNothing } from "./effects.js";
import { eventsInOrder, eventsScoped } from "./events.js";
import { factsOf } from "./facts.js";
import { idempotency } from "./idempotency.js";
import { inputOnce } from "./input.js";
import type { Oracle, Violation } from "./oracle.js";
import { effectStateAgrees, inputDeliveredOnce, oneEffectPerReceipt, reservedBeforeDispatch } from "./ledger.js";
import { pairingDecisions } from "./pairing.js";
import { pairingIsolation, receiptsReadable } from "./receipts.js";
import { transitions } from "./transitions.js";

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
  effectsRequested,
  refusalsDispatchNothing,
];

export type OracleVerdict =
  | { id: string; rules: string[]; title: string; verdict: "pass" }
  | { id: string; rules: string[]; title: string; verdict: "fail"; violations: Violation[] }
  | { id: string; rules: string[]; title: string; verdict: "not-applicable"; reason: string };

/** Judges a history against every invariant. Pure: the same history gives the same verdicts. */
export function checkHistory(history: History): OracleVerdict[] {
  const facts = factsOf(history);
  return ORACLES.map(({ id, rules, title, needsLedger, check }) => {
    if (needsLedger && history.ledger === undefined) return { id, rules, title, verdict: "not-applicable", reason: "the history carries no effect ledger (traffic recorded outside explore)" };
    const violations = check(facts);
    return violations.length === 0 ? { id, rules, title, verdict: "pass" } : { id, rules, title, verdict: "fail", violations };
  });
}

export const failuresOf = (verdicts: OracleVerdict[]) => verdicts.flatMap((v) => (v.verdict === "fail" ? [v] : []));
