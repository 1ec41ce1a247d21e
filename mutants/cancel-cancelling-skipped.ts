import { buildToolResult, ok } from "../protocol/envelope.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

type Event = { operationId: string; previousState: string | null; state: string };

/**
 * A broker seen in the wild (written in Python): when Lomi answers a cancel with an immediate
 * settlement it records running → cancelled, never cancelling. Its receipts read right; only the
 * transitions it records, which the events feed shows, are illegal.
 */
export const cancelCancellingSkipped: Mutant = {
  name: "cancel-cancelling-skipped",
  family: "CANCEL",
  breaks: ["CANCEL-02", "EVT-01", "OP-02"],
  defect: "a cancel Lomi settles at once is recorded running → cancelled, without cancelling",
  oracle: "events-in-order",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_events_read" && (okDataOf(reply)?.events as Event[] | undefined)?.some((e) => e.state === "cancelling") === true,
      (reply) => {
        const page = okDataOf(reply)!;
        // Each cancelling event leaves the feed, and the event after it says it came from the state before.
        const skipped = new Map<string, string | null>();
        const events = (page.events as Event[]).flatMap((e) => {
          if (e.state === "cancelling") {
            skipped.set(e.operationId, e.previousState);
            return [];
          }
          if (e.previousState === "cancelling" && skipped.has(e.operationId)) return [{ ...e, previousState: skipped.get(e.operationId)! }];
          return [e];
        });
        return buildToolResult(ok({ ...page, events }));
      },
    ),
  },
};
