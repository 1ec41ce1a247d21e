import { ofKind, type LedgerEntry, type LedgerEntryOf } from "../../protocol/control-api.js";
import { isOneOf } from "../../protocol/closed-lists.js";
import { NATIVE_SETTLED_STATES } from "../../protocol/native-bridge.js";
import { forgettable, type Facts } from "./facts.js";
import { eventsIn, type IndexedCall } from "../history/replies.js";
import { canonical } from "../text/canonical-json.js";
import { whenTold } from "../history/told.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import {
  CANNOT_UNDO_RULES,
  cannotUndoRule,
  crashBetween,
  isOrderedInput,
  orderedInputRules,
  SETTLEMENT_RULE_IDS,
  settlementRuleOf,
  settlementRules,
} from "./finding-rules.js";

// Invariants that compare what the broker said with what Lomi's effect ledger says happened.

const ledgerOf = (facts: Facts): readonly LedgerEntry[] => facts.history.ledger ?? [];
/** A reader and the operation it asked for, as one map key. */
const readerKey = (agent: string, operationId: string) => `${agent}\u0000${operationId}`;
const operationDispatches = (facts: Facts) =>
  ledgerOf(facts)
    .filter(ofKind("dispatch"))
    .filter((e) => !isOrderedInput(e.tool));

export const oneEffectPerReceipt: Oracle = {
  id: "one-dispatch-per-receipt",
  rules: ["IDEM-01", "DUR-01", "DUR-03"],
  title: "one native dispatch per receipt key, and no replay under a used permit",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    for (const e of ledgerOf(facts).filter(ofKind("replay"))) {
      // A replay after a restart breaks "never dispatched again" (DUR-01); without one, a retry dispatched again (IDEM-01).
      found.push({
        message: `Lomi's ledger records a replay: ${e.tool} dispatched again under the permit of ${e.operationId} (ledger entry ${e.sequence})`,
        records: [],
        rules: [facts.crashes.length > 0 ? "DUR-01" : "IDEM-01"],
      });
    }
    const byKey = new Map<string, Set<string>>();
    for (const e of operationDispatches(facts)) {
      const key = e.detail.permit?.receiptKey;
      if (!key) continue;
      const ids = byKey.get(key) ?? new Set();
      ids.add(e.operationId);
      byKey.set(key, ids);
    }
    const retried = facts.crashes.length > 0 ? ["IDEM-01", "DUR-03"] : ["IDEM-01"];
    for (const [key, ids] of byKey)
      if (ids.size > 1)
        found.push({ message: `receipt key ${key} was dispatched as ${ids.size} operations (${[...ids].join(", ")})`, records: [], rules: retried });
    return found;
  },
  /** Each operation Lomi received under a permit: one receipt key, once (IDEM-01); after a restart, never again (DUR-01, DUR-03). */
  triggers(facts) {
    const tally = new Tally();
    const dispatches = operationDispatches(facts).filter((e) => e.detail.permit !== undefined).length;
    tally.add(facts.crashes.length > 0 ? ["IDEM-01", "DUR-01", "DUR-03"] : "IDEM-01", dispatches);
    return tally.triggers;
  },
};

/**
 * A dispatch names a durable receipt: a pairing that asks for a dispatched operation it was never
 * told of (its admission's reply was lost) finds it. One it was told of is receipts-readable's, and
 * what Lomi received against what the agent sent is effects-requested's.
 */
export const reservedBeforeDispatch: Oracle = {
  id: "receipt-before-dispatch",
  rules: ["DUR-06"],
  title: "no dispatch without a receipt reserved before it",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    const mayBeGone = forgettable(facts);
    // Reads that found no receipt, by reader and operationId (a lookup per dispatch, not a scan).
    const notFound = new Map<string, IndexedCall[]>();
    for (const c of facts.calls) {
      if (c.tool !== "lomi_operation_get" || c.envelope?.status !== "error" || c.envelope.code !== "NOT_FOUND") continue;
      const key = readerKey(c.agent, String(c.args.operationId));
      const same = notFound.get(key);
      if (same) same.push(c);
      else notFound.set(key, [c]);
    }
    for (const e of operationDispatches(facts)) {
      const agent = facts.history.pairings.get(e.pairingId);
      const toldAt = agent === undefined ? undefined : whenTold(facts.told, agent, e.operationId);
      const lost = (agent === undefined ? undefined : notFound.get(readerKey(agent, e.operationId)))?.find(
        (c) => !mayBeGone(e.operationId, c.index) && (toldAt === undefined || toldAt > c.index),
      );
      if (lost)
        found.push({
          message: `Lomi dispatched ${e.operationId} (${e.tool}), yet its pairing's lomi_operation_get answers NOT_FOUND: no durable receipt`,
          records: [lost.index],
          rules: ["DUR-06"],
        });
    }
    return found;
  },
  /** Each dispatched operation its pairing read by operationId: whether it found a receipt is what is judged. */
  triggers(facts) {
    const tally = new Tally();
    const read = new Set(
      facts.calls.filter((c) => c.tool === "lomi_operation_get" && c.reply.status === "answered").map((c) => readerKey(c.agent, String(c.args.operationId))),
    );
    for (const e of operationDispatches(facts)) {
      const agent = facts.history.pairings.get(e.pairingId);
      if (agent !== undefined && read.has(readerKey(agent, e.operationId))) tally.add("DUR-06");
    }
    return tally.triggers;
  },
};

/**
 * A settled receipt agrees with Lomi: the state and effectState Lomi settled it with; or, when Lomi
 * settled nothing for it, effectState none and no effect in the ledger. A cancel while queued
 * (an event queued → cancelled) means Lomi never received the operation. Another effectState is
 * OP-04's (and, for a cancelled operation read as if nothing had been done, the rule of the effect a
 * cancel cannot undo); a state alone other than Lomi's names no rule (the gate fails, and the steps
 * judge the state by their own rule).
 */
export const effectStateAgrees: Oracle = {
  id: "effect-state-agrees",
  rules: ["OP-04", "CANCEL-01", "DUR-01", ...SETTLEMENT_RULE_IDS, ...CANNOT_UNDO_RULES],
  title: "a settled receipt agrees with the ledger; a cancel while queued means no effect, and cancelled effects stay",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    const settles = new Map<string, LedgerEntryOf<"settle">>();
    const effects = new Set<string>();
    const dispatched = new Set<string>();
    for (const e of ledgerOf(facts)) {
      if (e.kind === "settle") settles.set(e.operationId, e);
      if (e.kind === "effect") effects.add(e.operationId);
      if (e.kind === "dispatch") dispatched.add(e.operationId);
    }
    for (const [operationId, all] of facts.sightings) {
      const settledRead = all.find((s) => s.via === "receipt" && isOneOf(NATIVE_SETTLED_STATES, s.state));
      if (settledRead) {
        const lomi = settles.get(operationId);
        const said = `${settledRead.state} with effectState ${settledRead.effectState}`;
        if (lomi && (lomi.detail.state !== settledRead.state || lomi.effectState !== settledRead.effectState)) {
          // A cancelled operation read with effectState none where Lomi's effects stand claims a rollback: cancel cannot undo them.
          const undone =
            lomi.detail.state === "cancelled" && settledRead.state === "cancelled" && settledRead.effectState === "none" && lomi.effectState !== "none";
          const rules = [
            ...settlementRules(lomi.tool, { state: lomi.detail.state, effectState: lomi.effectState }, settledRead),
            ...(undone ? [cannotUndoRule(lomi.tool)] : []),
          ];
          found.push({
            message: `${operationId} reads ${said}; Lomi settled it ${lomi.detail.state} with effectState ${lomi.effectState}`,
            records: [settledRead.index],
            rules,
          });
        } else if (!lomi && (settledRead.effectState !== "none" || effects.has(operationId))) {
          // Settled by nobody across a restart: an unfinished operation must read outcome_unknown (DUR-01).
          const rules = crashBetween(facts.crashes, facts.owners.get(operationId)?.index ?? -1, settledRead.index) ? ["DUR-01"] : ["OP-04"];
          found.push({
            message: `${operationId} reads ${said}; Lomi never settled it${effects.has(operationId) ? ", and its ledger records effects" : ""}`,
            records: [settledRead.index],
            rules,
          });
        }
      }
    }
    for (const c of facts.calls) {
      for (const e of eventsIn(c)) {
        if (e.previousState === "queued" && e.state === "cancelled" && dispatched.has(e.operationId)) {
          found.push({ message: `${e.operationId} went from queued to cancelled, yet Lomi received its dispatch`, records: [c.index], rules: ["CANCEL-01"] });
        }
      }
    }
    return found;
  },
  /**
   * Each operation read settled (OP-04, and the rule of how its tool settles where Lomi settled it
   * so), or read settled across a restart with no settlement from Lomi (DUR-01); each read of one
   * Lomi settled cancelled with effects (the rule its effect cannot be undone by); each event of a
   * cancel while queued (CANCEL-01).
   */
  triggers(facts) {
    const tally = new Tally();
    const settles = new Map(
      ledgerOf(facts)
        .filter(ofKind("settle"))
        .map((e) => [e.operationId, e]),
    );
    for (const [operationId, all] of facts.sightings) {
      const read = all.find((s) => s.via === "receipt" && isOneOf(NATIVE_SETTLED_STATES, s.state));
      if (!read) continue;
      const lomi = settles.get(operationId);
      const acrossCrash = !lomi && crashBetween(facts.crashes, facts.owners.get(operationId)?.index ?? -1, read.index);
      tally.add(acrossCrash ? "DUR-01" : "OP-04");
      const own = lomi && settlementRuleOf(lomi.tool, { state: lomi.detail.state, effectState: lomi.effectState });
      if (own) tally.add(own.rule);
      if (lomi && lomi.detail.state === "cancelled" && lomi.effectState !== "none") tally.add(cannotUndoRule(lomi.tool));
    }
    for (const c of facts.calls) tally.add("CANCEL-01", eventsIn(c).filter((e) => e.previousState === "queued" && e.state === "cancelled").length);
    return tally.triggers;
  },
};

/** Lomi received each (lease, inputSequence) at most once. */
export const inputDeliveredOnce: Oracle = {
  id: "input-delivered-once",
  rules: ["INPUT-03", "INPUT-16"],
  title: "Lomi received no input sequence twice",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    const seen = new Map<string, number>();
    for (const e of ledgerOf(facts)) {
      if (e.kind !== "dispatch" || !isOrderedInput(e.tool)) continue;
      const { leaseId, inputSequence } = e.detail.args;
      const key = `${String(leaseId)}\u0000${String(inputSequence)}`;
      if (seen.has(key))
        found.push({
          message: `Lomi received inputSequence ${String(inputSequence)} under ${String(leaseId)} twice (ledger entries ${seen.get(key)} and ${e.sequence})`,
          records: [],
          rules: orderedInputRules(e.tool, ["INPUT-03"]),
        });
      else seen.set(key, e.sequence);
    }
    return found;
  },
  /** Each (lease, inputSequence) an agent sent more than once: what Lomi must receive once. */
  triggers({ calls }) {
    const tally = new Tally();
    const sent = new Map<string, { tool: string; times: number }>();
    for (const c of calls.filter((x) => isOrderedInput(x.tool))) {
      const key = `${String(c.args.leaseId)}\u0000${String(c.args.inputSequence)}`;
      sent.set(key, { tool: c.tool, times: (sent.get(key)?.times ?? 0) + 1 });
    }
    for (const { tool, times } of sent.values()) if (times > 1) tally.add(orderedInputRules(tool, ["INPUT-03"]));
    return tally.triggers;
  },
};
