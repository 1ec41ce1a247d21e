import { contractOf } from "../../protocol/catalogue.js";
import { isOneOf } from "../../protocol/closed-lists.js";
import { OPERATION_STATES, type EffectState, type OperationState } from "../../protocol/states.js";
import type { CallRecord, History } from "./format.js";

// The one reading of a recorded reply: the oracles, the end-of-run reads, explore's model and the
// recorder's reports all read replies through it. It is loose on purpose: whether a reply is a
// *valid* envelope is the envelopes oracle's to judge; here a reply only has to read as one.

/** A reply's envelope when one came back and reads as one. */
export type RecordedEnvelope =
  { status: "ok"; data: Record<string, unknown> } | { status: "error"; code: string; message: string; details?: Record<string, unknown> } | undefined;

/** A call with its position in the history (records are numbered from 0, header included). */
export interface IndexedCall extends CallRecord {
  index: number;
  envelope: RecordedEnvelope;
}

/** Any object: its members are read as unknown. The reply's own objects are kept, not copied (a parse would drop a "__proto__" key the oracles must see). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** A reply's structuredContent read loosely as a Lomi envelope, or undefined when it does not read as one. */
export function looseEnvelope(structuredContent: unknown): RecordedEnvelope {
  if (!isObject(structuredContent)) return undefined;
  const { status, data, code, message, details } = structuredContent;
  if (status === "ok" && isObject(data)) return { status: "ok", data };
  if (status === "error" && typeof code === "string")
    return { status: "error", code, message: String(message ?? ""), details: isObject(details) ? details : undefined };
  return undefined;
}

/** The envelope of a recorded call's reply, when it was answered and reads as one. */
export const envelopeOf = (call: CallRecord): RecordedEnvelope => (call.reply.status === "answered" ? looseEnvelope(call.reply.structuredContent) : undefined);

/** A history's calls, each with its position and envelope. */
export function indexedCalls(history: Pick<History, "records">): IndexedCall[] {
  return history.records.flatMap((r, index) => (r.type === "call" ? [{ ...r, index, envelope: envelopeOf(r) }] : []));
}

const isState = (value: unknown): value is OperationState => isOneOf(OPERATION_STATES, value);

/** The operation an ok reply names (data.operation): its ID, its state when it gives one as text, its other members read as unknown. */
export type NamedOperation = Record<string, unknown> & { operationId: string; state: string | undefined };

/** The operation an ok envelope's data names, read loosely. */
export function operationNamed(envelope: RecordedEnvelope): NamedOperation | undefined {
  if (envelope?.status !== "ok") return undefined;
  const op = envelope.data.operation;
  if (!isObject(op) || typeof op.operationId !== "string") return undefined;
  return { ...op, operationId: op.operationId, state: typeof op.state === "string" ? op.state : undefined };
}

/**
 * A receipt as the oracles read it: an operation named with a state of the closed set. Its other
 * members are as the broker sent them (the envelopes oracle judges their types).
 */
export type ReceiptView = NamedOperation & { state: OperationState };

/** The receipt an ok reply carries (an admission, a get, a lookup, a cancel), if any. */
export function receiptIn(call: Pick<IndexedCall, "envelope">): ReceiptView | undefined {
  const op = operationNamed(call.envelope);
  return op && isState(op.state) ? { ...op, state: op.state } : undefined;
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
const isEvent = (e: unknown): e is EventView => isObject(e) && typeof e.operationId === "string" && isState(e.state);

/** The events a lomi_events_read reply carries, those that read as events of an operation. */
export function eventsIn(call: Pick<IndexedCall, "tool" | "envelope">): EventView[] {
  if (call.tool !== "lomi_events_read" || call.envelope?.status !== "ok") return [];
  const events = call.envelope.data.events;
  // The other members are the envelopes oracle's to judge: an event is read as the broker sent it.
  return Array.isArray(events) ? events.filter(isEvent) : [];
}

/** Every state the receipts of an operation showed, in history order, a repeat of the last left out: what its events feed must agree with. */
export function statesShown(calls: Iterable<IndexedCall>, operationId: string): OperationState[] {
  const shown: OperationState[] = [];
  for (const c of calls) {
    const receipt = receiptIn(c);
    if (receipt?.operationId === operationId && shown.at(-1) !== receipt.state) shown.push(receipt.state);
  }
  return shown;
}
