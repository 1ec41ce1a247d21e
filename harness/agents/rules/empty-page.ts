import { isSettled } from "../../../protocol/states.js";
import { broken, brokenByEnd, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { answeredBefore, lastShown } from "../conduct.js";

/** AGENT-06: after an empty events page the agent continues with that page's cursor. */
export const emptyPage: AgentCheck = {
  rule: "AGENT-06",
  none: "no events page the agent read was empty",
  trials(c) {
    const trials: Trial[] = [];
    const reads = c.calls.filter((x) => x.tool === "lomi_events_read");
    reads.forEach((page, at) => {
      if (page.envelope?.status !== "ok") return;
      const { events, nextCursor } = page.envelope.data;
      if (!Array.isArray(events) || events.length > 0 || typeof nextCursor !== "string") return;
      const ws = page.args.workspaceId;
      const next = reads.slice(at + 1).find((x) => x.args.workspaceId === ws && answeredBefore(page, x));
      if (next) {
        trials.push(
          next.args.cursor === nextCursor
            ? kept([page.index, next.index], `the next read of ${String(ws)}'s feed continued with the empty page's cursor`)
            : broken(
                [page.index, next.index],
                `after an empty page of ${String(ws)}'s feed the agent read it ${next.args.cursor === undefined ? "from the start (no cursor)" : `with another cursor (${JSON.stringify(next.args.cursor)})`}, not the page's cursor ${JSON.stringify(nextCursor)}`,
              ),
        );
        return;
      }
      // No later read: what the agent still awaited there, as far as it had been shown.
      const awaited = [...c.receipts].filter(
        ([operationId, r]) =>
          r.workspaceId === ws &&
          (c.admissions.get(operationId)?.index ?? Number.POSITIVE_INFINITY) < page.index &&
          !isSettled(lastShown(c, operationId, page.index + 1)?.state ?? "succeeded"),
      );
      trials.push(
        awaited.length > 0
          ? brokenByEnd(
              [page.index],
              `the agent stopped reading ${String(ws)}'s feed at an empty page while ${awaited.map(([id]) => id).join(", ")} had not been shown settled`,
            )
          : undecided([page.index], `the agent read ${String(ws)}'s feed no more after an empty page, awaiting nothing there`),
      );
    });
    return trials;
  },
};
