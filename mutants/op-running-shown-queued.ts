import { buildToolResult, ok } from "../protocol/envelope.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

type Event = { operationId: string; previousState: string | null; state: string };
type Receipt = { state: string };

/** A receipt as this broker shows it: dispatched work reads queued until it settles. */
const shown = (r: Receipt) => (r.state === "running" ? { ...r, state: "queued" } : r);

/** A reply that shows running somewhere: a feed page with a move to or from it, or another reply's operation in it. Any other reads the same as shown. */
const showsRunning = ({ tool, reply }: { tool: string; reply: Parameters<typeof okDataOf>[0] }) => {
  const data = okDataOf(reply);
  if (tool === "lomi_events_read") return (data?.events as Event[] | undefined)?.some((e) => e.state === "running" || e.previousState === "running") === true;
  return (data?.operation as Receipt | undefined)?.state === "running";
};

export const opRunningShownQueued: Mutant = {
  name: "op-running-shown-queued",
  family: "OP",
  breaks: ["OP-01", "OP-02"],
  defect: "the broker never says running: dispatched work reads queued until it settles, and its feed goes queued → succeeded, as its receipts do",
  parts: {
    session: sessionRewritingPicked(showsRunning, (reply, name) => {
      const data = okDataOf(reply)!;
      if (name === "lomi_events_read") {
        // The feed shows what the receipts showed: running reads queued, so queued → running is no transition at all.
        const asShown = (state: string | null) => (state === "running" ? "queued" : state);
        const events = (data.events as Event[]).flatMap((e) => {
          const shownEvent = { ...e, previousState: asShown(e.previousState), state: asShown(e.state) as string };
          return e.previousState !== e.state && shownEvent.previousState === shownEvent.state ? [] : [shownEvent];
        });
        return buildToolResult(ok({ ...data, events }));
      }
      if (data.operation && typeof data.operation === "object") return buildToolResult(ok({ ...data, operation: shown(data.operation as Receipt) }));
      return reply;
    }),
  },
};
