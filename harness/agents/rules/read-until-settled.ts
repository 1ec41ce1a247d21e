import { isSettled } from "../../../protocol/states.js";
import { brokenByEnd, kept, undecided, type AgentCheck, type Trial } from "../agent-check.js";
import { lastShown, shownSettled, stillAt, type Conduct } from "../conduct.js";
import { admittedUnsettled } from "./admission-not-success.js";

/** What the agent did with an operation it had to read until settled, from `from` on. */
export function readUntilSettled(c: Conduct, operationId: string, from: number, what: string): Trial {
  const settledAt = shownSettled(c, operationId, from);
  if (settledAt !== undefined) return kept([from, settledAt], `${what}: shown settled at record ${settledAt}`);
  const last = lastShown(c, operationId, Number.POSITIVE_INFINITY);
  const records = [...new Set([from, ...(last ? [last.index] : [])])];
  if (stillAt(c, operationId)) return undecided(records, `${what}: the history ends while the agent still reads it`);
  return brokenByEnd(records, `${what}: never shown settled (last shown ${last?.state ?? "at its admission"}); the agent went on without it`);
}

/** The command operations the agent interrupted while they were unsettled, each with the interrupt's record: AGENT-13's. */
export function interrupted(c: Conduct): Array<{ operationId: string; at: number }> {
  return c.calls.flatMap((call) => {
    if (call.tool !== "lomi_terminal_interrupt" || call.envelope?.status !== "ok") return [];
    return [...c.admissions].flatMap(([operationId, a]) => {
      const before = lastShown(c, operationId, call.index);
      return a.tool === "lomi_terminal_run" &&
        a.index < call.index &&
        a.args.terminalSessionId === call.args.terminalSessionId &&
        before !== undefined &&
        !isSettled(before.state)
        ? [{ operationId, at: call.index }]
        : [];
    });
  });
}

/** AGENT-04: an operation admitted unsettled is read until it is shown settled. */
export const readsUntilSettled: AgentCheck = {
  rule: "AGENT-04",
  none: "no operation was admitted to the agent unsettled",
  trials(c) {
    const interrupts = new Set(interrupted(c).map((i) => i.operationId));
    return admittedUnsettled(c)
      .filter(([operationId]) => !interrupts.has(operationId))
      .map(([operationId, a]) =>
        readUntilSettled(c, operationId, a.index, `${operationId} (${a.tool}, admitted ${c.shown.get(operationId)?.find((s) => s.index === a.index)?.state})`),
      );
  },
};

/** AGENT-13: after an interrupt, the original command is monitored until its operation is shown settled. */
export const monitorsInterrupted: AgentCheck = {
  rule: "AGENT-13",
  none: "the agent interrupted no command whose operation it had been shown unsettled",
  trials: (c) => interrupted(c).map(({ operationId, at }) => readUntilSettled(c, operationId, at, `${operationId}, interrupted at record ${at}`)),
};
