import type { History } from "../history/format.js";
import { outcomeUnknownAfterCrash } from "./crashes.js";
import { envelopes, rejectedInput } from "./envelope.js";
import { epochAuthority } from "./epochs.js";
import { effectsRequested, refusalsDispatchNothing } from "./effects.js";
import { eventsInOrder, eventsScoped } from "./events.js";
import { factsOf, type Facts } from "./facts.js";
import { idempotency } from "./idempotency.js";
import { inputOnce } from "./input.js";
import type { Oracle, Triggers, Violation } from "./oracle.js";
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
  | { id: string; rules: string[]; title: string; verdict: "pass"; triggers: Triggers }
  | { id: string; rules: string[]; title: string; verdict: "fail"; violations: Violation[]; triggers: Triggers }
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
    return oracles.map(({ id, rules, title }) => ({
      id,
      rules,
      title,
      verdict: "unknown",
      error: `the history's facts could not be worked out: ${errorText(error)}`,
    }));
  }
  return oracles.map(({ id, rules, title, needsLedger, check, triggers }): OracleVerdict => {
    if (needsLedger && history.ledger === undefined)
      return { id, rules, title, verdict: "not-applicable", reason: "the history carries no effect ledger (traffic recorded outside explore)" };
    let violations: Violation[];
    let counted: Triggers;
    try {
      violations = check(facts);
      counted = triggers(facts);
    } catch (error) {
      return { id, rules, title, verdict: "unknown", error: errorText(error) };
    }
    return violations.length === 0
      ? { id, rules, title, verdict: "pass", triggers: counted }
      : { id, rules, title, verdict: "fail", violations, triggers: counted };
  });
}

export const failuresOf = (verdicts: readonly OracleVerdict[]) => verdicts.flatMap((v) => (v.verdict === "fail" ? [v] : []));
export const unknownsOf = (verdicts: readonly OracleVerdict[]) => verdicts.flatMap((v) => (v.verdict === "unknown" ? [v] : []));

/**
 * What the oracles say of one rule over a history: failed (a finding breaks it), passed (its
 * situation arose `judged` times and nothing broke it), not exercised (its situation never arose:
 * never a pass), not judged (every oracle that could judge it lacked the ledger it needs), or
 * unknown (an oracle that judges it failed itself, and no finding breaks it).
 */
export type RuleJudgement = "fail" | "pass" | "not-exercised" | "not-judged" | "unknown";

export interface RuleFromOracles {
  id: string;
  verdict: RuleJudgement;
  /** How many times its situation arose, over every oracle that judges it. */
  judged: number;
  /** The findings that break it. */
  violations: Array<Violation & { oracle: string }>;
  /** The oracles that can judge it. */
  oracles: string[];
  /** Why it was not judged or is unknown. */
  reason?: string;
}

/** Per rule, in the order the oracles list them: the oracles' verdicts folded by rule (docs/explore.md, "Triggers"). */
export function rulesFromOracles(verdicts: readonly OracleVerdict[]): RuleFromOracles[] {
  const byRule = new Map<string, RuleFromOracles>();
  for (const v of verdicts) {
    for (const id of v.rules) {
      const rule = byRule.get(id) ?? { id, verdict: "not-exercised", judged: 0, violations: [], oracles: [] };
      byRule.set(id, rule);
      rule.oracles.push(v.id);
      if (v.verdict === "pass" || v.verdict === "fail") rule.judged += v.triggers[id] ?? 0;
      if (v.verdict === "fail") rule.violations.push(...v.violations.filter((x) => x.rules.includes(id)).map((x) => ({ ...x, oracle: v.id })));
      if (v.verdict === "unknown") rule.reason = `${v.id} could not judge this history: ${v.error.split("\n")[0]}`;
      if (v.verdict === "not-applicable") rule.reason ??= `${v.id}: ${v.reason}`;
    }
  }
  const applicable = (id: string) => verdicts.some((v) => v.rules.includes(id) && (v.verdict === "pass" || v.verdict === "fail"));
  const unknown = (id: string) => verdicts.some((v) => v.rules.includes(id) && v.verdict === "unknown");
  return [...byRule.values()].map((r) => {
    const verdict: RuleJudgement =
      r.violations.length > 0 ? "fail" : unknown(r.id) ? "unknown" : !applicable(r.id) ? "not-judged" : r.judged > 0 ? "pass" : "not-exercised";
    const { reason, ...rest } = r;
    return { ...rest, verdict, ...(verdict === "unknown" || verdict === "not-judged" ? { reason } : {}) };
  });
}
