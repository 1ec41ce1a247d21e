import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const evtRunningEventsDropped: Mutant = {
  name: "evt-running-events-dropped",
  family: "EVT",
  breaks: ["EVT-01"],
  defect: "lomi_events_read leaves out every transition to running",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) =>
        tool === "lomi_events_read" && (okDataOf(reply)?.events as Array<{ state: string }> | undefined)?.some((e) => e.state === "running") === true,
      (reply) => {
        const data = okDataOf(reply)!;
        return okReply({ ...data, events: (data.events as Array<{ state: string }>).filter((e) => e.state !== "running") });
      },
    ),
  },
};
