import { historyOf, type HistoryRecord, type ReplyRecord } from "../../harness/history/format.js";
import type { UnrecordedEntry } from "../../protocol/control-api.js";
import type { NativeSettledState } from "../../protocol/native-bridge.js";
import type { EffectState } from "../../protocol/states.js";

// Small hand-written histories for the checker's tests: each helper makes one record the way a
// broker and Lomi would have produced it.

const T0 = Date.parse("2026-01-05T09:00:00.000Z");
export const at = (ms: number) => new Date(T0 + ms).toISOString();
export const EPOCH = "epoch-aaaaaaaa";

type Receipt = {
  operationId: string;
  state: string;
  effectState: string;
  requestKey?: string;
  tool?: string;
  error?: { code: string; message: string } | null;
};

export function receipt(r: Receipt, ms = 0) {
  return {
    operationId: r.operationId,
    tool: r.tool ?? "lomi_terminal_run",
    workspaceId: "ws-alpha",
    projectId: "proj-app",
    retryEpoch: EPOCH,
    requestKey: r.requestKey ?? "run-1",
    state: r.state,
    effectState: r.effectState,
    createdAt: at(0),
    updatedAt: at(ms),
    result: null,
    error: r.error ?? (r.state === "failed" ? { code: "NATIVE_FAILURE", message: "failed" } : null),
  };
}

const okReply = (data: unknown) => ({ status: "answered" as const, isError: false, structuredContent: { controlApiVersion: "1.0", status: "ok", data } });
export const errorReply = (code: string, message = `${code} refusal`) => ({
  status: "answered" as const,
  isError: true,
  structuredContent: { controlApiVersion: "1.0", status: "error", code, message },
});

export function call(
  tool: string,
  args: Record<string, unknown>,
  reply: ReplyRecord,
  o: { agent?: string; connection?: string; ms?: number } = {},
): HistoryRecord {
  return { type: "call", agent: o.agent ?? "agent-a", connection: o.connection ?? "c1", tool, args, sentAt: at(o.ms ?? 0), answeredAt: at(o.ms ?? 0), reply };
}

export const runArgs = (requestKey = "run-1", command = "npm test", retryEpoch = EPOCH) => ({
  workspaceId: "ws-alpha",
  terminalSessionId: "term-1",
  command,
  retryEpoch,
  requestKey,
});

/** An operation tool's admission reply. */
export const admit = (
  r: Receipt,
  args: Record<string, unknown> = runArgs(r.requestKey),
  o: { agent?: string; connection?: string; ms?: number; duplicate?: boolean } = {},
) => call(r.tool ?? "lomi_terminal_run", args, okReply({ operation: receipt(r, o.ms), duplicate: o.duplicate ?? false }), o);
export const get = (r: Receipt, o: { agent?: string; connection?: string; ms?: number } = {}) =>
  call("lomi_operation_get", { operationId: r.operationId }, okReply({ operation: receipt(r, o.ms) }), o);
export const getRefused = (operationId: string, code: string, o: { agent?: string; ms?: number } = {}) =>
  call("lomi_operation_get", { operationId }, errorReply(code), o);
export const cancel = (r: Receipt, outcome: string, o: { agent?: string; ms?: number } = {}) =>
  call("lomi_operation_cancel", { operationId: r.operationId }, okReply({ outcome, operation: receipt(r, o.ms) }), o);
/** A reconciliation the user approved, with what it removed (counts the checker does not judge). */
export const reconcile = (o: { ms?: number; olderThanHours?: number } = {}) =>
  call(
    "lomi_store_reconcile",
    o.olderThanHours === undefined ? {} : { olderThanHours: o.olderThanHours },
    okReply({
      status: "completed",
      approvalId: "appr-1",
      removed: { receipts: 1, retryEpochs: 0, events: 3 },
      kept: { receipts: 0, unfinished: 0, outcomeUnknown: 0 },
    }),
    o,
  );
export const connect = (retryEpoch: string, o: { agent?: string; connection?: string; ms?: number } = {}) =>
  call(
    "lomi_connect",
    { workspaceId: "ws-alpha" },
    okReply({
      connectionId: `conn-${o.connection ?? "c1"}`,
      workspaceId: "ws-alpha",
      retryEpoch,
      retryEpochExpiresAt: at((o.ms ?? 0) + 24 * 3600_000),
      projects: [{ projectId: "proj-app", name: "app" }],
      domainRevision: "7",
    }),
    o,
  );

type Ev = { sequence: string; operationId: string; previousState: string | null; state: string; effectState?: string };
export const events = (list: Ev[], o: { cursor?: string; next?: string; agent?: string; ms?: number } = {}) =>
  call(
    "lomi_events_read",
    { workspaceId: "ws-alpha", ...(o.cursor !== undefined ? { cursor: o.cursor } : {}) },
    okReply({
      events: list.map((e) => ({
        sequence: e.sequence,
        operationId: e.operationId,
        tool: "lomi_terminal_run",
        workspaceId: "ws-alpha",
        previousState: e.previousState,
        state: e.state,
        effectState: e.effectState ?? "none",
        at: at(0),
      })),
      nextCursor: o.next ?? list.at(-1)?.sequence ?? o.cursor ?? "0",
      hasMore: false,
    }),
    o,
  );

export const input = (seq: string, text: string, ack: { dispatchId: string; acknowledged: string; inputSequence?: string }) =>
  call(
    "lomi_terminal_input",
    { workspaceId: "ws-alpha", terminalSessionId: "term-1", leaseId: "lease-1", inputSequence: seq, text },
    okReply({
      leaseId: "lease-1",
      inputSequence: ack.inputSequence ?? seq,
      dispatchId: ack.dispatchId,
      acknowledged: ack.acknowledged,
      terminalSessionId: "term-1",
    }),
  );

/** A broker crash; `ledgerSequence`: where Lomi's ledger stood then, as the driver records it. */
export const crash = (ms = 0, detail: Record<string, unknown> = {}): HistoryRecord => ({ type: "fault", kind: "broker-crash", at: at(ms), detail });

let sequence = 0;
export function ledger(entry: UnrecordedEntry): HistoryRecord {
  return { type: "ledger", entry: { sequence: ++sequence, at: at(0), ...entry } };
}
/** An entry's operation, under agent-a's pairing, of lomi_terminal_run. */
export const entryOf = (operationId: string) => ({ operationId, tool: "lomi_terminal_run", pairingId: "pair-a" });
const permitOf = (operationId: string, receiptKey = `key-${operationId}`) => ({ operationId, receiptKey, fingerprint: "f" });
export const dispatch = (operationId: string, args: Record<string, unknown> = runArgs(), receiptKey?: string) =>
  ledger({ kind: "dispatch", ...entryOf(operationId), detail: { args, permit: permitOf(operationId, receiptKey) } });
export const effect = (operationId: string, what = "process.started") => ledger({ kind: "effect", ...entryOf(operationId), detail: { what } });
export const replay = (operationId: string) => ledger({ kind: "replay", ...entryOf(operationId), detail: { args: runArgs(), permit: permitOf(operationId) } });
export const settle = (operationId: string, state: NativeSettledState, effectState: EffectState) =>
  ledger({ kind: "settle", ...entryOf(operationId), detail: { state, error: null }, effectState });

/** A history from records; `withLedger` says it carries Lomi's ledger (and the pairing of agent-a). */
export function history(records: HistoryRecord[], withLedger = false) {
  const header: HistoryRecord = { type: "header", format: "lomi-history/1", source: "test", ledger: withLedger };
  const pairings: HistoryRecord[] = withLedger
    ? [
        { type: "pairing", pairingId: "pair-a", agent: "agent-a" },
        { type: "pairing", pairingId: "pair-b", agent: "agent-b" },
      ]
    : [];
  return historyOf([header, ...records, ...pairings]);
}
