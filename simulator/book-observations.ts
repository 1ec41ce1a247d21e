import type { ObserveQuery } from "../protocol/native-bridge.js";
import type { Simulator } from "./simulator.js";

type BookQuery = Extract<ObserveQuery, { kind: "settings" | "conversation" | "repository" }>;

/** The bridge's reads of Lomi's settings, Chat conversations and Git repositories, for an approved workspace. */
export function observeBook(sim: Simulator, pairingId: string, query: BookQuery) {
  const { world } = sim;
  return sim.observeIn(pairingId, query.workspaceId, (ws) => {
    if (query.kind === "settings") return world.settings.view();
    if (query.kind === "conversation") return world.chats.view(ws.workspaceId, query.conversationId);
    world.project(ws, query.projectId);
    return world.repositories.view(query.projectId);
  });
}
