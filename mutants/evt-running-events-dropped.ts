import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingReplies } from "./rewriting-session.js";

export const evtRunningEventsDropped: Mutant = {
  name: "evt-running-events-dropped",
  family: "EVT",
  breaks: ["EVT-01"],
  defect: "lomi_events_read leaves out every transition to running",
  parts: {
    session: sessionRewritingReplies((reply, name) => {
      const data = okDataOf(reply);
      if (name !== "lomi_events_read" || !data) return reply;
      return okReply({ ...data, events: (data.events as Array<{ state: string }>).filter((e) => e.state !== "running") });
    }),
  },
};
