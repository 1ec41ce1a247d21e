import { contractOf } from "../../protocol/catalogue.js";
import { isOneOf } from "../../protocol/closed-lists.js";
import { OPERATION_STATES, type EffectState, type OperationState } from "../../protocol/states.js";
import type { CallRecord, FaultRecord, History } from "../history/format.js";

/** A call with its position in the history (records are numbered from 0, header included). */
export interface IndexedCall extends CallRecord {
  index: number;
  /** The reply's envelope when one came back and reads as one. */
  envelope: { status: "ok"; data: Record<string, unknown> } | { status: "error"; code: string; message: string; details?: Record<string, unknown> } | undefined;
}

/** One sighting of an operation's state: in a receipt a reply carried, or in an event. */
export interface Sighting {
  index: number;
  agent: string;
  operationId: string;
  state: OperationState;
  effectState: EffectState;
  via: "receipt" | "event";
  /** Calls in flight together share a mark: their order among themselves is unknown. */
  concurrent: string | undefined;
}

export interface ReceiptView {
  operationId: string;
  tool: string;
  workspaceId: string;
  projectId: string;
  retryEpoch: string;
  requestKey: string;
  state: OperationState;
  effectState: EffectState;
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
  /** Where each agent was first told of each operation (an admission, a read, a lookup, an event), by toldKey. */
  told: Map<string, number>;
  /** The record position of each ledger entry, by its sequence: a violation points at what Lomi did. */
  ledgerAt: Map<number, number>;
}

export const toldKey = (agent: string, operationId: string) => `${agent}\u0000${operationId}`;

const isState = (s: unknown): s is OperationState => isOneOf(OPERATION_STATES, s);

/**
 * A reply's structuredContent read loosely as a Lomi envelope, or undefined when it does not read as
 * one: the one reading of a recorded reply (the oracles, the end-of-run reads and explore's model
 * share it); whether it is a *valid* envelope is the envelopes oracle's to judge.
 */
export function looseEnvelope(structuredContent: unknown): IndexedCall["envelope"] {
  const sc = structuredContent as Record<string, unknown> | null | undefined;
  if (!sc || typeof sc !== "object") return undefined;
  if (sc.status === "ok" && sc.data && typeof sc.data === "object") return { status: "ok", data: sc.data as Record<string, unknown> };
  if (sc.status === "error" && typeof sc.code === "string") return { status: "error", code: sc.code, message: String(sc.message ?? ""), details: sc.details as Record<string, unknown> | undefined };
  return undefined;
}

/** The receipt an ok reply carries (an admission, a get, a lookup, a cancel), if any. */
export function receiptIn(call: IndexedCall): ReceiptView | undefined {
  if (call.envelope?.status !== "ok") return undefined;
  const op = call.envelope.data.operation as Record<string, unknown> | undefined;
  if (!op || typeof op.operationId !== "string" || !isState(op.state)) return undefined;
  return op as unknown as ReceiptView;
}

export const isOperationTool = (tool: string) => contractOf(tool)?.kind === "operation";

/** The ok admission reply of an operation tool: its receipt and whether it returned a prior one. */
export function admissionOf(call: IndexedCall): { receipt: ReceiptView; duplicate: boolean } | undefined {
  if (!isOperationTool(call.tool)) return undefined;
  const receipt = receiptIn(call);
  return receipt && { receipt, duplicate: call.envelope?.status === "ok" && call.envelope.data.duplicate === true };
}

export interface EventView {
  sequence: string;
  operationId: string;
  workspaceId: string;
  previousState: OperationState | null;
  state: OperationState;
  effectState: EffectState;
}

export function eventsIn(call: IndexedCall): EventView[] {
  if (call.tool !== "lomi_events_read" || call.envelope?.status !== "ok") return [];
  const events = call.envelope.data.events;
  return Array.isArray(events) ? (events as EventView[]).filter((e) => e && typeof e.operationId === "string" && isState(e.state)) : [];
}

const envelopeOf = (call: CallRecord) => (call.reply.status === "answered" ? looseEnvelope(call.reply.structuredContent) : undefined);

export function factsOf(history: History): Facts {
  const calls: IndexedCall[] = [];
  const faults: Facts["faults"] = [];
  history.records.forEach((r, index) => {
    if (r.type === "call") calls.push({ ...r, index, envelope: envelopeOf(r) });
    if (r.type === "fault") faults.push({ ...r, index });
  });
  const sightings = new Map<string, Sighting[]>();
  const owners = new Map<string, { agent: string; index: number }>();
  const sight = (s: Sighting) => {
    const list = sightings.get(s.operationId) ?? [];
    list.push(s);
    sightings.set(s.operationId, list);
  };
  for (const call of calls) {
    const receipt = receiptIn(call);
    if (receipt) sight({ index: call.index, agent: call.agent, operationId: receipt.operationId, state: receipt.state, effectState: receipt.effectState, via: "receipt", concurrent: call.concurrent });
    const admission = admissionOf(call);
    if (admission && !owners.has(admission.receipt.operationId)) owners.set(admission.receipt.operationId, { agent: call.agent, index: call.index });
    for (const e of eventsIn(call)) sight({ index: call.index, agent: call.agent, operationId: e.operationId, state: e.state, effectState: e.effectState, via: "event", concurrent: call.concurrent });
  }
  const told = new Map<string, number>();
  for (const [operationId, all] of sightings) for (const s of all) if (!told.has(toldKey(s.agent, operationId))) told.set(toldKey(s.agent, operationId), s.index);
  const ledgerAt = new Map<number, number>();
  history.records.forEach((r, index) => r.type === "ledger" && ledgerAt.set(r.entry.sequence, index));
  return { history, calls, faults, crashes: faults.filter((f) => f.kind === "broker-crash").map((f) => f.index), sightings, owners, told, ledgerAt };
}

/** Canonical JSON (sorted keys), so two payloads compare by content. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Settled and done with: what retention may remove (outcome_unknown is kept unless named). */
const REMOVABLE: ReadonlySet<OperationState> = new Set(["succeeded", "failed", "cancelled"]);

/**
 * Receipts a completed lomi_store_reconcile may have removed, by the time of each call: those it
 * named in forgetOperationIds, and those already seen settled (retention is the broker's to apply;
 * an unfinished operation not named must be kept, CAP-04).
 */
export function forgettable(facts: Facts): (operationId: string, index: number) => boolean {
  const reconciled = facts.calls.filter((c) => c.tool === "lomi_store_reconcile" && c.envelope?.status === "ok" && c.envelope.data.status === "completed");
  if (reconciled.length === 0) return () => false;
  return (operationId, index) =>
    reconciled.some((r) => {
      if (r.index > index) return false;
      const named = Array.isArray(r.args.forgetOperationIds) && r.args.forgetOperationIds.includes(operationId);
      const settledBefore = (facts.sightings.get(operationId) ?? []).some((s) => s.index < r.index && REMOVABLE.has(s.state));
      return named || settledBefore;
    });
}
