import { buildToolResult, ok } from "../protocol/envelope.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

type Event = { sequence: string; workspaceId: string };

export const evtFeedSpansWorkspaces: Mutant = {
  name: "evt-feed-spans-workspaces",
  family: "EVT",
  breaks: ["EVT-04"],
  defect: "lomi_events_read forgets its workspace filter: the feed of one workspace shows the pairing's operations in every workspace it may read",
  oracle: "events-scoped",
  stepsBlind: true,
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_events_read" && okDataOf(reply) !== undefined,
      async (own, name, args, { call }) => {
        const page = okDataOf(own)!;
        // Every workspace the pairing may read, merged in sequence order from the same cursor: one global feed.
        const workspaces = ((okDataOf(await call("lomi_workspace_list", {}))?.workspaces ?? []) as Array<{ workspaceId: string; approved: boolean }>).filter(
          (w) => w.approved && w.workspaceId !== args.workspaceId,
        );
        const limit = (page.events as Event[]).length > 0 || page.hasMore ? Math.max((page.events as Event[]).length, 1) : 50;
        const pages = [page, ...(await Promise.all(workspaces.map(async (w) => okDataOf(await call(name, { ...args, workspaceId: w.workspaceId })))))].filter(
          (p) => p !== undefined,
        );
        const merged = pages.flatMap((p) => p.events as Event[]).sort((a, b) => (BigInt(a.sequence) < BigInt(b.sequence) ? -1 : 1));
        const events = merged.slice(0, typeof args.limit === "number" ? args.limit : limit);
        const hasMore = merged.length > events.length || pages.some((p) => p.hasMore === true);
        return buildToolResult(ok({ ...page, events, hasMore, nextCursor: events.at(-1)?.sequence ?? page.nextCursor }));
      },
    ),
  },
};
