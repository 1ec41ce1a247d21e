import { ofKind } from "../../protocol/control-api.js";
import type { OperationState } from "../../protocol/states.js";
import { RECONCILE_DEFAULT_RETENTION_HOURS } from "../../protocol/tools/store.js";
import type { FaultRecord, History } from "../history/format.js";
import { admissionOf, eventsIn, indexedCalls, receiptIn, type IndexedCall } from "../history/replies.js";
import { toldOf, type Told } from "../history/told.js";

/** One sighting of an operation's state: in a receipt a reply carried, or in an event. */
export interface Sighting {
  index: number;
  agent: string;
  operationId: string;
  state: OperationState;
  /** As the broker gave it (the envelopes oracle judges whether it is one of the closed set). */
  effectState: unknown;
  via: "receipt" | "event";
  /** Calls in flight together share a mark: their order among themselves is unknown. */
  concurrent: string | undefined;
}

/** What every invariant reads, worked out once from a history. */
export interface Facts {
  history: History;
  calls: IndexedCall[];
  faults: Array<FaultRecord & { index: number }>;
  /** Record positions of broker crashes (each followed by a new instance on the same store). */
  crashes: number[];
  /** Receipts sighted, per operationId, in history order. */
  sightings: Map<string, Sighting[]>;
  /** The agent an operation was first admitted to, and where. */
  owners: Map<string, { agent: string; index: number }>;
  /** What each agent was told: where it was first told of each operation, and its feeds. */
  told: Told;
  /** The record position of each ledger entry, by its sequence: a violation points at what Lomi did. */
  ledgerAt: Map<number, number>;
}

export function factsOf(history: History): Facts {
  const calls = indexedCalls(history);
  const faults = history.records.flatMap((r, index) => (r.type === "fault" ? [{ ...r, index }] : []));
  const sightings = new Map<string, Sighting[]>();
  const owners = new Map<string, { agent: string; index: number }>();
  const sight = (s: Sighting) => {
    const list = sightings.get(s.operationId) ?? [];
    list.push(s);
    sightings.set(s.operationId, list);
  };
  for (const call of calls) {
    const receipt = receiptIn(call);
    if (receipt)
      sight({
        index: call.index,
        agent: call.agent,
        operationId: receipt.operationId,
        state: receipt.state,
        effectState: receipt.effectState,
        via: "receipt",
        concurrent: call.concurrent,
      });
    const admission = admissionOf(call);
    if (admission && !owners.has(admission.receipt.operationId)) owners.set(admission.receipt.operationId, { agent: call.agent, index: call.index });
    for (const e of eventsIn(call))
      sight({
        index: call.index,
        agent: call.agent,
        operationId: e.operationId,
        state: e.state,
        effectState: e.effectState,
        via: "event",
        concurrent: call.concurrent,
      });
  }
  const told = toldOf(calls);
  const ledgerAt = new Map<number, number>();
  history.records.forEach((r, index) => r.type === "ledger" && ledgerAt.set(r.entry.sequence, index));
  return { history, calls, faults, crashes: faults.filter((f) => f.kind === "broker-crash").map((f) => f.index), sightings, owners, told, ledgerAt };
}

/** Settled and done with: what retention may remove (outcome_unknown is kept unless named). */
const REMOVABLE: ReadonlySet<OperationState> = new Set(["succeeded", "failed", "cancelled"]);

const HOUR_MS = 3_600_000;

/**
 * Receipts a completed lomi_store_reconcile may have removed, by the time of each call: those it
 * named in forgetOperationIds, those already seen settled, and those the broker may have seen settle
 * unseen by the agent (a broker may settle in its own time, OP-01): Lomi settled them at least the
 * retention before the reconciliation — the broker records a settlement no sooner than Lomi makes
 * it, so an operation Lomi settled later, or never, was unfinished or too young and must be kept
 * (CAP-04). Without Lomi's ledger, or with times on a recorder's clock, nothing rules that out.
 */
export function forgettable(facts: Facts): (operationId: string, index: number) => boolean {
  const reconciled = facts.calls.filter((c) => c.tool === "lomi_store_reconcile" && c.envelope?.status === "ok" && c.envelope.data.status === "completed");
  if (reconciled.length === 0) return () => false;
  const onLomisClock = facts.history.ledger !== undefined && facts.history.header?.clock !== "recorder";
  const lomiSettledAt = new Map((facts.history.ledger ?? []).filter(ofKind("settle")).map((e) => [e.operationId, Date.parse(e.at)]));
  return (operationId, index) =>
    reconciled.some((r) => {
      if (r.index > index) return false;
      const named = Array.isArray(r.args.forgetOperationIds) && r.args.forgetOperationIds.includes(operationId);
      const settledBefore = (facts.sightings.get(operationId) ?? []).some((s) => s.index < r.index && REMOVABLE.has(s.state));
      const retentionMs = (typeof r.args.olderThanHours === "number" ? r.args.olderThanHours : RECONCILE_DEFAULT_RETENTION_HOURS) * HOUR_MS;
      const settledUnseen = !onLomisClock || (lomiSettledAt.get(operationId) ?? Number.POSITIVE_INFINITY) <= Date.parse(r.answeredAt) - retentionMs;
      return named || settledBefore || settledUnseen;
    });
}
