import { ADMISSION_STATES, canTransition, type OperationState } from "../../protocol/states.js";
import { eventsIn, operationNamed, statesShown, type EventView } from "../history/replies.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { crashBetween } from "./finding-rules.js";

/** The events of one operation as a feed shows them, in its order: the shape an event needs here. */
export interface FeedEvent {
  sequence: string;
  previousState: OperationState | null;
  state: OperationState;
  effectState: string;
}

/** What is wrong with an event; `illegal` when it shows a transition no legal transition allows (not one left out or shown twice). */
export interface EventProblem {
  text: string;
  illegal?: { from: OperationState; to: OperationState };
}

/**
 * What is wrong with an operation's event coming after `before`, its previous event in the same
 * feed (undefined: the first the feed shows of it): the first shows admission (no previous state,
 * an admission state); each names the state the one before it left, and moves by a legal
 * transition of protocol/states.ts, or changes effectState alone. For the oracle over every
 * history and for the steps that judge one operation's path.
 */
export function nextEventProblem(before: FeedEvent | undefined, e: FeedEvent): EventProblem | undefined {
  if (before === undefined) {
    return e.previousState === null && ADMISSION_STATES.includes(e.state)
      ? undefined
      : {
          text: `its first event (${e.sequence}) must show admission (previousState null, state ${ADMISSION_STATES.join(" or ")}), not ${e.previousState} → ${e.state}`,
        };
  }
  if (e.previousState !== before.state)
    return {
      text: `event ${e.sequence} says previousState ${e.previousState}, the feed's previous event of it (${before.sequence}) showed ${before.state}: a transition is missing or shown twice`,
    };
  const effectOnly = e.state === before.state && e.effectState !== before.effectState;
  if (!effectOnly && !canTransition(before.state, e.state))
    return { text: `event ${e.sequence} shows ${before.state} → ${e.state}, not a legal transition`, illegal: { from: before.state, to: e.state } };
  return undefined;
}

/**
 * Whether an event's problem is the operation's rather than the feed's. A feed that leaves a
 * transition out or shows one twice is the feed's (EVT-01). An illegal transition is the operation's
 * (OP-02) wherever it shows, the feed only showing faithfully what the receipts did; it is the feed's
 * only when the receipts showed a state between the two that the feed left out.
 */
export function isOperationsOwn(problem: EventProblem, shown: readonly OperationState[]): boolean {
  if (!problem.illegal) return false;
  const from = shown.indexOf(problem.illegal.from);
  const to = from < 0 ? -1 : shown.indexOf(problem.illegal.to, from + 1);
  return !(to > from + 1);
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
          found.push({
            message: `event ${e.sequence} read as ${shape(sameSequence.event)}, later as ${shape(e)}`,
            records: [sameSequence.index, c.index],
            rules: ruleFor(sameSequence.index, c.index),
          });
        }
        bySequence.set(`${streamKey}\u0000${e.sequence}`, { event: e, index: c.index });
        // An event with the same state on both sides records a change of effectState alone.
        // An illegal transition is said once, here: the stream's own check below would say it again as the feed's.
        const illegal = e.previousState !== null && e.previousState !== e.state && !canTransition(e.previousState, e.state);
        if (illegal && e.previousState !== null) {
          const own = isOperationsOwn(
            { text: "", illegal: { from: e.previousState, to: e.state } },
            statesShown(
              calls.filter((x) => x.index < c.index),
              e.operationId,
            ),
          );
          found.push({ message: `event ${e.sequence} shows ${shape(e)}, not a legal transition`, records: [c.index], rules: own ? ["OP-02"] : ["EVT-01"] });
        }
        if (!stream) continue;
        const sequence = BigInt(e.sequence);
        if (sequence <= stream.lastSequence) {
          found.push({
            message: `event ${e.sequence} (${shape(e)}) came after event ${stream.lastSequence} in one feed: shown again or out of order`,
            records: [c.index],
            rules: ruleFor(0, c.index),
          });
          continue;
        }
        stream.lastSequence = sequence;
        const before = stream.last.get(e.operationId);
        // A stream read from the start shows each operation from its admission, unless a reconciliation removed its first events.
        const problem = (before || stream.complete) && !illegal ? nextEventProblem(before?.event, e) : undefined;
        if (problem)
          found.push({
            message: `${e.operationId}: ${problem.text}`,
            records: [...new Set([...(before ? [before.index] : []), c.index])],
            rules: ruleFor(before?.index ?? 0, c.index),
          });
        stream.last.set(e.operationId, { event: e, index: c.index });
      }
      if (stream && typeof c.envelope.data.nextCursor === "string") stream.cursor = c.envelope.data.nextCursor;
    }
    return found;
  },
  /**
   * Each event a feed showed (EVT-01); each read that continued from an empty page's cursor (EVT-02);
   * each read that continued, across a crash, from a cursor the feed gave before it (EVT-03).
   */
  triggers({ calls, crashes }) {
    const tally = new Tally();
    /** The page that gave each cursor, per agent and workspace: whether it was empty, and where. */
    const gave = new Map<string, { empty: boolean; index: number }>();
    for (const c of calls) {
      if (c.tool !== "lomi_events_read" || c.envelope?.status !== "ok") continue;
      const feed = `${c.agent}\u0000${String(c.args.workspaceId)}`;
      const from = c.args.cursor === undefined ? undefined : gave.get(`${feed}\u0000${String(c.args.cursor)}`);
      const events = eventsIn(c);
      tally.add("EVT-01", events.length);
      if (from?.empty) tally.add("EVT-02");
      if (from && crashBetween(crashes, from.index, c.index)) tally.add("EVT-03");
      const next = c.envelope.data.nextCursor;
      if (typeof next === "string") gave.set(`${feed}\u0000${next}`, { empty: events.length === 0, index: c.index });
    }
    return tally.triggers;
  },
};

/**
 * A workspace's feed shows the operations of that workspace, of the reading pairing, and no other:
 * an event naming another workspace, an operation a receipt placed in another workspace, or one
 * admitted to another pairing is out of place.
 */
export const eventsScoped: Oracle = {
  id: "events-scoped",
  rules: ["EVT-04"],
  title: "a workspace's feed shows that workspace's operations of the reading pairing only",
  needsLedger: false,
  check({ calls, owners }) {
    const found: Violation[] = [];
    const workspaceOf = new Map<string, { workspaceId: string; index: number }>();
    for (const c of calls) {
      const receipt = operationNamed(c.envelope);
      if (receipt && typeof receipt.workspaceId === "string" && !workspaceOf.has(receipt.operationId))
        workspaceOf.set(receipt.operationId, { workspaceId: receipt.workspaceId, index: c.index });
    }
    for (const c of calls) {
      const feed = String(c.args.workspaceId);
      for (const e of eventsIn(c)) {
        const placed = workspaceOf.get(e.operationId);
        const owner = owners.get(e.operationId);
        if (e.workspaceId !== undefined && e.workspaceId !== feed)
          found.push({
            message: `the feed of ${feed} shows event ${e.sequence} of ${e.operationId} in ${e.workspaceId}`,
            records: [c.index],
            rules: ["EVT-04"],
          });
        else if (placed && placed.workspaceId !== feed)
          found.push({
            message: `the feed of ${feed} shows event ${e.sequence} of ${e.operationId}, an operation of ${placed.workspaceId}`,
            records: [placed.index, c.index],
            rules: ["EVT-04"],
          });
        else if (owner && owner.agent !== c.agent)
          found.push({
            message: `${c.agent}'s feed of ${feed} shows event ${e.sequence} of ${e.operationId}, an operation of another pairing (${owner.agent})`,
            records: [owner.index, c.index],
            rules: ["EVT-04"],
          });
      }
    }
    return found;
  },
  /** Each feed read while an operation of another workspace, or of another pairing, existed: what the feed must leave out. */
  triggers({ calls, owners }) {
    const tally = new Tally();
    const placed: Array<{ workspaceId: unknown; agent: string; index: number }> = [];
    for (const c of calls) {
      const receipt = operationNamed(c.envelope);
      const owner = receipt && owners.get(receipt.operationId);
      if (receipt && owner?.index === c.index) placed.push({ workspaceId: receipt.workspaceId, agent: owner.agent, index: c.index });
      if (c.tool === "lomi_events_read" && c.envelope?.status === "ok" && placed.some((p) => p.workspaceId !== c.args.workspaceId || p.agent !== c.agent))
        tally.add("EVT-04");
    }
    return tally.triggers;
  },
};
