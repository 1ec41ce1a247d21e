import { getOrInsert } from "../map-entry.js";
import { eventsIn, operationNamed, type IndexedCall } from "./replies.js";

// One account of what each agent was told, read from the history: the end-of-run reads follow it
// (each agent reads what it was told of), and the oracles judge by it (what an agent was told of
// must stay readable by its pairing).

export interface AgentTold {
  /** Each operation an ok reply named to the agent (a receipt it carried, or an event), and the record where one first did. */
  operations: Map<string, number>;
  /** Each workspace the agent connected to, and where its events feed was left (undefined: never read). */
  feeds: Map<string, string | undefined>;
}

/** What the agents were told, by agent. */
export type Told = Map<string, AgentTold>;

export function toldOf(calls: Iterable<IndexedCall>): Told {
  const told: Told = new Map();
  for (const c of calls) {
    if (c.envelope?.status !== "ok") continue;
    const mine = getOrInsert(told, c.agent, () => ({ operations: new Map(), feeds: new Map() }));
    const named = [operationNamed(c.envelope)?.operationId, ...eventsIn(c).map((e) => e.operationId)];
    for (const id of named) if (id !== undefined && !mine.operations.has(id)) mine.operations.set(id, c.index);
    const workspaceId = typeof c.args.workspaceId === "string" ? c.args.workspaceId : undefined;
    if (workspaceId === undefined) continue;
    if (c.tool === "lomi_connect" && !mine.feeds.has(workspaceId)) mine.feeds.set(workspaceId, undefined);
    const nextCursor = c.envelope.data.nextCursor;
    if (c.tool === "lomi_events_read" && typeof nextCursor === "string") mine.feeds.set(workspaceId, nextCursor);
  }
  return told;
}

/** The record where the agent was first told of the operation, if it ever was. */
export const whenTold = (told: Told, agent: string, operationId: string): number | undefined => told.get(agent)?.operations.get(operationId);
