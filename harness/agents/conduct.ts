import { contractOf } from "../../protocol/catalogue.js";
import type { OperationContract } from "../../protocol/tool-contract.js";
import { isSettled, type OperationState } from "../../protocol/states.js";
import type { History } from "../history/format.js";
import { eventsIn, indexedCalls, isObject, isOperationTool, receiptIn, type IndexedCall, type ReceiptView } from "../history/replies.js";
import { getOrInsert } from "../map-entry.js";
import { BEFORE_IDENTITY } from "../oracles/idempotency.js";
import { canonical } from "../text/canonical-json.js";

// One agent's side of a history, as the agent rules read it: its calls, and what the broker showed it.

/** A state of an operation a reply showed the agent: in a receipt, or in an event. */
export interface Shown {
  index: number;
  state: OperationState;
  /** The call's concurrent mark: it was in flight with the others that share it. */
  concurrent: string | undefined;
}

export interface Conduct {
  /** initialize's clientInfo.name and, where the recorder saw one, clientInfo.version. */
  name: string;
  version: string | undefined;
  /** How reports name it: "claude-code 1.2". */
  label: string;
  /** Its calls, in history order. */
  calls: IndexedCall[];
  /** Each operation's states as replies showed them to the agent, in order. */
  shown: Map<string, Shown[]>;
  /** Each operation's receipt as the agent last saw it (its tool and workspace). */
  receipts: Map<string, ReceiptView>;
  /** The call whose reply first named each operation to the agent as an operation call's answer (an admission, or a resend's duplicate). */
  admissions: Map<string, IndexedCall>;
  /** Its operation calls that got no reply, each with where it retrieved their outcome (a conclusive answer to a resend or key lookup), if it did. */
  lost: Array<{ call: IndexedCall; retrievedAt: number | undefined }>;
}

export const agentLabel = (name: string, version: string | undefined) => (version === undefined ? name : `${name} ${version}`);

/** Every agent of a history, each with its own calls: an agent is a client name and version. */
export function conductsOf(history: History): Conduct[] {
  const byAgent = new Map<string, Conduct>();
  for (const call of indexedCalls(history)) {
    const label = agentLabel(call.agent, call.agentVersion);
    const conduct = getOrInsert(byAgent, label, (): Conduct => ({
      name: call.agent,
      version: call.agentVersion,
      label,
      calls: [],
      shown: new Map(),
      receipts: new Map(),
      admissions: new Map(),
      lost: [],
    }));
    conduct.calls.push(call);
    const receipt = receiptIn(call);
    if (receipt) {
      getOrInsert(conduct.shown, receipt.operationId, () => []).push({ index: call.index, state: receipt.state, concurrent: call.concurrent });
      conduct.receipts.set(receipt.operationId, receipt);
      if (isOperationTool(call.tool) && !conduct.admissions.has(receipt.operationId)) conduct.admissions.set(receipt.operationId, call);
    }
    for (const e of eventsIn(call))
      getOrInsert(conduct.shown, e.operationId, () => []).push({ index: call.index, state: e.state, concurrent: call.concurrent });
  }
  for (const c of byAgent.values())
    c.lost = c.calls
      .filter((x) => x.reply.status === "lost" && isOperationTool(x.tool))
      .map((call) => ({ call, retrievedAt: firstCallAfter(c, call, (x) => conclusive(x) && (sameRequest(x, call) || isKeyLookupOf(x, call)))?.index }));
  return [...byAgent.values()];
}

/**
 * Whether the reply to `a` reached the agent before it sent `b`: recorded earlier, and not in flight
 * with it (calls sharing a concurrent mark are recorded as their replies came, not as they were sent).
 */
export const answeredBefore = (a: { index: number; concurrent?: string | undefined }, b: { index: number; concurrent?: string | undefined }) =>
  a.index < b.index && (a.concurrent === undefined || a.concurrent !== b.concurrent);

/** Where the agent was first shown the operation settled after `from` (and before it sent `before`), if it was. */
export function shownSettled(c: Conduct, operationId: string, from: number, before?: IndexedCall): number | undefined {
  return c.shown.get(operationId)?.find((s) => s.index > from && (before === undefined || answeredBefore(s, before)) && isSettled(s.state))?.index;
}

/** The last state the agent was shown for the operation before `at`. */
export function lastShown(c: Conduct, operationId: string, at: number): Shown | undefined {
  return c.shown
    .get(operationId)
    ?.filter((s) => s.index < at)
    .at(-1);
}

/** Where the agent's calls recorded after a record begin (calls are in record order). */
function startAfter(c: Conduct, index: number): number {
  let [low, high] = [0, c.calls.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (c.calls[mid]!.index <= index) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The agent's calls sent after the reply to `after` reached it. */
export const callsAfter = (c: Conduct, after: { index: number; concurrent?: string | undefined }) =>
  c.calls.slice(startAfter(c, after.index)).filter((x) => answeredBefore(after, x));

/** The first call the agent sent after the reply to `after` reached it that `matches`. */
function firstCallAfter(
  c: Conduct,
  after: { index: number; concurrent?: string | undefined },
  matches: (call: IndexedCall) => boolean,
): IndexedCall | undefined {
  for (let i = startAfter(c, after.index); i < c.calls.length; i++) {
    const call = c.calls[i]!;
    if (answeredBefore(after, call) && matches(call)) return call;
  }
  return undefined;
}

/** Whether the agent's last call was about this operation: it was still at it when the history ends (the recording may have stopped, not the agent). */
export function stillAt(c: Conduct, operationId: string): boolean {
  const last = c.calls.at(-1);
  return last !== undefined && (last.args.operationId === operationId || receiptIn(last)?.operationId === operationId);
}

/** An operation call's retry identity, as the agent chose it. */
export const identityOf = memo((call) => canonical([call.tool, call.args.retryEpoch, call.args.requestKey, call.args.projectId ?? null]));

/** An operation tool's contract, read as any operation's (its revision and serialization fields by name). */
export function operationContract(tool: string): OperationContract | undefined {
  const contract = contractOf(tool);
  return contract?.kind === "operation" ? (contract as OperationContract) : undefined;
}

/** A text worked out once per call: the checks compare the same calls' arguments many times over. */
function memo(make: (call: IndexedCall) => string): (call: IndexedCall) => string {
  const known = new WeakMap<IndexedCall, string>();
  return (call) => {
    const held = known.get(call);
    if (held !== undefined) return held;
    const made = make(call);
    known.set(call, made);
    return made;
  };
}

/** A call's arguments as canonical JSON. */
export const argsOf = memo((call) => canonical(call.args));

/** What an operation call asks for, its retry identity and the tool's revision field left out: the same request under another key reads the same. */
export const requestOf = memo((call) => {
  const revision = operationContract(call.tool)?.revisionField;
  return canonical([call.tool, Object.fromEntries(Object.entries(call.args).filter(([k]) => k !== "retryEpoch" && k !== "requestKey" && k !== revision))]);
});

/** The same request exactly: the same tool and every argument. */
export const sameRequest = (a: IndexedCall, b: IndexedCall) => a.tool === b.tool && argsOf(a) === argsOf(b);

export const errorCodeOf = (call: IndexedCall) => (call.envelope?.status === "error" ? call.envelope.code : undefined);
export const answered = (call: IndexedCall) => call.reply.status === "answered";

/** The target an operation call acts on: its workspace and the field its tool serializes on (docs/native-bridge.md, "Serialization targets"). */
export function targetOf(call: Pick<IndexedCall, "tool" | "args">): string | undefined {
  const contract = operationContract(call.tool);
  if (!contract) return undefined;
  const value = call.args[contract.serializeOn];
  return value === undefined ? undefined : canonical([call.args.workspaceId, contract.serializeOn, value]);
}

/**
 * An answer that settles what became of a request: a receipt, or a refusal given after the broker
 * looked the identity up (NOT_FOUND, an epoch that grants nothing…); not one given before it
 * (PROJECT_REQUIRED, a store or Lomi that is down), which says nothing of the request.
 */
const conclusive = (call: IndexedCall) => call.envelope?.status === "ok" || (call.envelope?.status === "error" && !BEFORE_IDENTITY.has(call.envelope.code));

/** A lookup by the lost call's key: its retryEpoch, requestKey and tool. */
export const isKeyLookupOf = (x: IndexedCall, lost: IndexedCall) =>
  x.tool === "lomi_operation_lookup" && x.args.tool === lost.tool && x.args.retryEpoch === lost.args.retryEpoch && x.args.requestKey === lost.args.requestKey;

/** Whether a call resends a lost request the agent had not retrieved yet: AGENT-08's to judge, not a new submission. */
export function resendsLost(c: Conduct, call: IndexedCall): boolean {
  return c.lost.some((l) => l.call.index < call.index && sameRequest(l.call, call) && (l.retrievedAt ?? Number.POSITIVE_INFINITY) >= call.index);
}

/** A reply's data walked: `visit` gets each object in it, the data itself first. */
export function walkData(value: unknown, visit: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const v of value) walkData(v, visit);
  else if (isObject(value)) {
    visit(value);
    for (const v of Object.values(value)) walkData(v, visit);
  }
}
