import { ADMISSION_STATES, canTransition, type OperationState } from "../../protocol/states.js";
import { eventsIn, operationNamed, type EventView } from "../history/replies.js";
import type { Oracle, Violation } from "./oracle.js";
import { crashBetween } from "./finding-rules.js";

/** The events of one operation as a feed shows them, in its order: the shape an event needs here. */
export interface FeedEvent {
  sequence: string;
  previousState: OperationState | null;
  state: OperationState;
  effectState: string;
}

/**
 * What is wrong with an operation's event coming after `before`, its previous event in the same
 * feed (undefined: the first the feed shows of it): the first shows admission (no previous state,
 * an admission state); each names the state the one before it left, and moves by a legal
 * transition of protocol/states.ts, or changes effectState alone. EVT-01 and OP-02, for the
 * oracle over every history and for the steps that judge one operation's path.
 */
export function nextEventProblem(before: FeedEvent | undefined, e: FeedEvent): string | undefined {
  if (before === undefined) {
    return e.previousState === null && ADMISSION_STATES.includes(e.state) ? undefined : `its first event (${e.sequence}) must show admission (previousState null, state ${ADMISSION_STATES.join(" or ")}), not ${e.previousState} → ${e.state}`;
  }
  if (e.previousState !== before.state) return `event ${e.sequence} says previousState ${e.previousState}, the feed's previous event of it (${before.sequence}) showed ${before.state}: a transition is missing or shown twice`;
  const effectOnly = e.state === before.state && e.effectState !== before.effectState;
  if (!effectOnly && !canTransition(before.state, e.state)) return `event ${e.sequence} shows ${before.state} → ${e.state}, not a legal transition (shown twice, or out of order)`;
  return undefined;
}

/**
 * Each agent's feed of a workspace, read from the start and continued with each nextCursor, shows
 * every transition of an operation once and in order: an event's previousState is the state of the
 * operation's event before it; sequences only grow; a sequence always names the same event.
 */
export const eventsInOrder: Oracle = {
  id: "events-in-order",
  rules: ["EVT-01", "EVT-02", "EVT-03"],
  title: "events: each transition once, in order",
  needsLedger: false,
  check({ calls, crashes }) {
    const found: Violation[] = [];
    // Across a restart the feed and its cursor must survive as well (EVT-03).
    const ruleFor = (from: number, to: number) => (crashBetween(crashes, from, to) ? ["EVT-01", "EVT-03"] : ["EVT-01"]);
    /** Per agent and workspace: the cursor a continuing read sends, the last sequence, each operation's last event. */
    const streams = new Map<string, { cursor: string; lastSequence: bigint; complete: boolean; last: Map<string, { event: EventView; index: number }> }>();
    let reconciled = false;
    const bySequence = new Map<string, { event: EventView; index: number }>();
    for (const c of calls) {
      if (c.tool === "lomi_store_reconcile" && c.envelope?.status === "ok") reconciled = true;
      if (c.tool !== "lomi_events_read" || c.envelope?.status !== "ok") continue;
      const streamKey = `${c.agent}\u0000${String(c.args.workspaceId)}`;
      const cursor = c.args.cursor === undefined ? undefined : String(c.args.cursor);
      let stream = streams.get(streamKey);
      if (cursor === undefined) {
        stream = { cursor: "", lastSequence: -1n, complete: !reconciled, last: new Map() };
        streams.set(streamKey, stream);
      } else if (!stream || stream.cursor !== cursor) {
        stream = undefined; // a read from elsewhere in the feed: judged only for legal, consistent events
      }
      for (const e of eventsIn(c)) {
        const sameSequence = bySequence.get(`${streamKey}\u0000${e.sequence}`);
        const shape = (x: EventView) => `${x.operationId} ${x.previousState ?? "(none)"} -> ${x.state}`;
        if (sameSequence && shape(sameSequence.event) !== shape(e)) {
          found.push({ message: `event ${e.sequence} read as ${shape(sameSequence.event)}, later as ${shape(e)}`, records: [sameSequence.index, c.index], rules: ruleFor(sameSequence.index, c.index) });
        }
        bySequence.set(`${streamKey}\u0000${e.sequence}`, { event: e, index: c.index });
        // An event with the same state on both sides records a change of effectState alone.
        if (e.previousState !== null && e.previousState !== e.state && !canTransition(e.previousState, e.state)) {
          found.push({ message: `event ${e.sequence} shows ${shape(e)}, not a legal transition`, records: [c.index], rules: ["EVT-01"] });
        }
        if (!stream) continue;
        const sequence = BigInt(e.sequence);
        if (sequence <= stream.lastSequence) {
          found.push({ message: `event ${e.sequence} (${shape(e)}) came after event ${stream.lastSequence} in one feed: shown again or out of order`, records: [c.index], rules: ruleFor(0, c.index) });
          continue;
        }
        stream.lastSequence = sequence;
        const before = stream.last.get(e.operationId);
        // A stream read from the start shows each operation from its admission, unless a reconciliation removed its first events.
        const problem = before || stream.complete ? nextEventProblem(before?.event, e) : undefined;
        if (problem) found.push({ message: `${e.operationId}: ${problem}`, records: [...new Set([...(before ? [before.index] : []), c.index])], rules: ruleFor(before?.index ?? 0, c.index) });
        stream.last.set(e.operationId, { event: e, index: c.index });
      }
      if (stream && typeof c.envelope.data.nextCursor === "string") stream.cursor = c.envelope.data.nextCursor;
    }
    return found;
  },
};

/**
 * A workspace's feed shows the operations of that workspace and no other: an event naming another
 * workspace, or an operation a receipt placed in another workspace, is out of place. (Another
 * pairing's operations are pairing-isolation's.)
 */
export const eventsScoped: Oracle = {
  id: "events-scoped",
  rules: ["EVT-04"],
  title: "a workspace's feed shows that workspace's operations only",
  needsLedger: false,
  check({ calls }) {
    const found: Violation[] = [];
    const workspaceOf = new Map<string, { workspaceId: string; index: number }>();
    for (const c of calls) {
      const receipt = operationNamed(c.envelope);
      if (receipt && typeof receipt.workspaceId === "string" && !workspaceOf.has(receipt.operationId)) workspaceOf.set(receipt.operationId, { workspaceId: receipt.workspaceId, index: c.index });
    }
    for (const c of calls) {
      const feed = String(c.args.workspaceId);
      for (const e of eventsIn(c)) {
        const placed = workspaceOf.get(e.operationId);
        if (e.workspaceId !== undefined && e.workspaceId !== feed) found.push({ message: `the feed of ${feed} shows event ${e.sequence} of ${e.operationId} in ${e.workspaceId}`, records: [c.index], rules: ["EVT-04"] });
        else if (placed && placed.workspaceId !== feed) found.push({ message: `the feed of ${feed} shows event ${e.sequence} of ${e.operationId}, an operation of ${placed.workspaceId}`, records: [placed.index, c.index], rules: ["EVT-04"] });
      }
    }
    return found;
  },
};
