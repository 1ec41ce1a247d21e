import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

export const inputInterruptTakenForCancel: Mutant = {
  name: "input-interrupt-taken-for-cancel",
  family: "INPUT",
  breaks: ["INPUT-12"],
  defect:
    "the broker takes Ctrl+C for a cancel request: once an interrupt is dispatched, the command running in that terminal reads cancelling, though nobody cancelled it and it may go on running",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_terminal_interrupt" && okDataOf(reply)?.acknowledged === "dispatched",
      async (reply, _name, args, { core }) => {
        const now = await core.native.now();
        for (const r of core.store.unsettledOn(`terminalSessionId:${String(args.terminalSessionId)}`)) {
          if (r.tool === "lomi_terminal_run" && r.state === "running") core.store.transition(r, "cancelling", {}, now);
        }
        return reply;
      },
    ),
  },
};
