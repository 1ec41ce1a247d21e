import { canTransition } from "../../protocol/states.js";
import { eventsIn, type EventView } from "./facts.js";
import type { Oracle, Violation } from "./oracle.js";

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
  check({ calls }) {
    const found: Violation[] = [];
    /** Per agent and workspace: the cursor a continuing read sends, the last sequence, each operation's last event. */
    const streams = new Map<string, { cursor: string; lastSequence: bigint; last: Map<string, { event: EventView; index: number }> }>();
    const bySequence = new Map<string, { event: EventView; index: number }>();
    for (const c of calls) {
      if (c.tool !== "lomi_events_read" || c.envelope?.status !== "ok") continue;
      const streamKey = `${c.agent}\u0000${String(c.args.workspaceId)}`;
      const cursor = c.args.cursor === undefined ? undefined : String(c.args.cursor);
      let stream = streams.get(streamKey);
      if (cursor === undefined) {
        stream = { cursor: "", lastSequence: -1n, last: new Map() };
        streams.set(streamKey, stream);
      } else if (!stream || stream.cursor !== cursor) {
        stream = undefined; // a read from elsewhere in the feed: judged only for legal, consistent events
      }
      for (const e of eventsIn(c)) {
        const sameSequence = bySequence.get(`${streamKey}\u0000${e.sequence}`);
        const shape = (x: EventView) => `${x.operationId} ${x.previousState ?? "(none)"} -> ${x.state}`;
        if (sameSequence && shape(sameSequence.event) !== shape(e)) {
          found.push({ message: `event ${e.sequence} read as ${shape(sameSequence.event)}, later as ${shape(e)}`, records: [sameSequence.index, c.index] });
        }
        bySequence.set(`${streamKey}\u0000${e.sequence}`, { event: e, index: c.index });
        // An event with the same state on both sides records a change of effectState alone.
        if (e.previousState !== null && e.previousState !== e.state && !canTransition(e.previousState, e.state)) {
          found.push({ message: `event ${e.sequence} shows ${shape(e)}, not a legal transition`, records: [c.index] });
        }
        if (!stream) continue;
        const sequence = BigInt(e.sequence);
        if (sequence <= stream.lastSequence) {
          found.push({ message: `event ${e.sequence} (${shape(e)}) came after event ${stream.lastSequence} in one feed: shown again or out of order`, records: [c.index] });
          continue;
        }
        stream.lastSequence = sequence;
        const before = stream.last.get(e.operationId);
        if (before && before.event.state !== e.previousState) {
          found.push({
            message: `${e.operationId}: event ${before.event.sequence} left it ${before.event.state}, the next event ${e.sequence} says it came from ${e.previousState ?? "nothing"}: a transition is missing or shown twice`,
            records: [...new Set([before.index, c.index])],
          });
        }
        stream.last.set(e.operationId, { event: e, index: c.index });
      }
      if (stream && typeof c.envelope.data.nextCursor === "string") stream.cursor = c.envelope.data.nextCursor;
    }
    return found;
  },
};
