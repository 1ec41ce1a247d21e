import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

/**
 * A feed that moves its cursor on by a page even when the page was empty (`after + limit`, as if it
 * had read one): the transitions that come next fall behind the cursor and are never shown.
 */
export const evtCursorSkipsAfterEmptyPage: Mutant = {
  name: "evt-cursor-skips-after-empty-page",
  family: "EVT",
  breaks: ["EVT-02"],
  defect: "after an empty page of lomi_events_read, nextCursor moves on by the page's limit, past the transitions that come next",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_events_read" && okDataOf(reply)?.events.length === 0,
      (reply, _name, args, { core }) => {
        const data = okDataOf(reply)!;
        const limit = typeof args.limit === "number" ? args.limit : core.policy.eventsPageSize;
        return okReply({ ...data, nextCursor: String(Number(data.nextCursor) + limit) });
      },
    ),
  },
};
