import { canonical } from "../text/canonical-json.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { isOrderedInput, orderedInputRules, sentSequenceRule } from "./finding-rules.js";

const payloadOf = (tool: string, args: Record<string, unknown>) => canonical({ tool, ...args });

/**
 * Ordered input: an acknowledgement names the lease and sequence sent; a (lease, sequence) is
 * dispatched once, identical inputs in flight together too; a repeat with the exact payload
 * acknowledges that dispatch; another payload is refused. Android input is ordered the same way.
 */
export const inputOnce: Oracle = {
  id: "input-once",
  rules: ["INPUT-02", "INPUT-03", "INPUT-04", "INPUT-05", "INPUT-15", "INPUT-16"],
  title: "no input sequence delivered twice",
  needsLedger: false,
  check({ calls }) {
    const found: Violation[] = [];
    const sent = new Map<string, { index: number; dispatchId: string; payload: string; concurrent: string | undefined }>();
    for (const c of calls) {
      if (!isOrderedInput(c.tool) || c.envelope?.status !== "ok") continue;
      const ack = c.envelope.data as { leaseId?: unknown; inputSequence?: unknown; dispatchId?: unknown; acknowledged?: unknown };
      if (ack.inputSequence !== c.args.inputSequence || ack.leaseId !== c.args.leaseId) {
        found.push({
          message: `${c.tool} sent inputSequence ${String(c.args.inputSequence)} under ${String(c.args.leaseId)}; the acknowledgement names ${String(ack.inputSequence)} under ${String(ack.leaseId)}`,
          records: [c.index],
          rules: orderedInputRules(c.tool, [sentSequenceRule(calls, c)]),
        });
        continue;
      }
      const key = `${String(c.args.leaseId)}\u0000${String(c.args.inputSequence)}`;
      const first = sent.get(key);
      const payload = payloadOf(c.tool, c.args);
      if (!first) {
        if (ack.acknowledged === "dispatched") sent.set(key, { index: c.index, dispatchId: String(ack.dispatchId), payload, concurrent: c.concurrent });
        continue;
      }
      if (payload !== first.payload) {
        found.push({
          message: `inputSequence ${String(c.args.inputSequence)} was used, and another payload under it was accepted; it must be INPUT_SEQUENCE_CONFLICT`,
          records: [first.index, c.index],
          rules: orderedInputRules(c.tool, ["INPUT-04"]),
        });
      } else if (ack.acknowledged !== "prior-dispatch" || ack.dispatchId !== first.dispatchId) {
        // Sent at the same moment (in flight together), the two are INPUT-15's as well.
        const together = c.concurrent !== undefined && c.concurrent === first.concurrent;
        found.push({
          message: `inputSequence ${String(c.args.inputSequence)} was dispatched twice (${first.dispatchId}, then ${String(ack.dispatchId)} ${String(ack.acknowledged)})`,
          records: [first.index, c.index],
          rules: orderedInputRules(c.tool, ["INPUT-03", ...(together ? ["INPUT-15"] : [])]),
        });
      }
    }
    return found;
  },
  /**
   * Each answered ordered input, under the rule of the sequence it sent: the next (INPUT-02), a repeat
   * (INPUT-03, INPUT-04; INPUT-15 in flight with another), a skip (INPUT-05); Android input's INPUT-16 too.
   */
  triggers({ calls }) {
    const tally = new Tally();
    for (const c of calls) {
      if (!isOrderedInput(c.tool) || c.reply.status !== "answered") continue;
      const together =
        c.concurrent !== undefined &&
        calls.some(
          (o) =>
            o !== c &&
            o.concurrent === c.concurrent &&
            isOrderedInput(o.tool) &&
            o.args.leaseId === c.args.leaseId &&
            o.args.inputSequence === c.args.inputSequence,
        );
      tally.add(orderedInputRules(c.tool, [sentSequenceRule(calls, c), ...(together ? ["INPUT-15"] : [])]));
    }
    return tally.triggers;
  },
};
