import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappingPicked } from "./rewriting-session.js";

/** Per broker instance, the next inputSequence it will send, per lease. */
const nextBy = new WeakMap<object, Map<string, number>>();

export const inputSequenceRenumbered: Mutant = {
  name: "input-sequence-renumbered",
  family: "INPUT",
  // Android input is renumbered too (INPUT-16). Not INPUT-15: identical inputs sent at once both arrive
  // before either is acknowledged, so both keep their sequence and the broker's own ordering sends one
  // (input-concurrent-sent-twice breaks it). Not INPUT-19: until Lomi acknowledges a lease's first
  // input the broker numbers nothing itself, so a lost first input and the next keep their numbers.
  breaks: ["INPUT-03", "INPUT-04", "INPUT-05", "INPUT-06", "INPUT-14", "INPUT-16", "INPUT-18"],
  defect: "the broker numbers input itself: a repeated inputSequence is sent again as the next one, and a gap is closed instead of refused",
  parts: {
    // Only a sequence in its canonical form ("1", not "01" or 1): a malformed one stays the schema's to refuse.
    session: sessionWrappingPicked(
      ({ args }) => typeof args.inputSequence === "string" && /^(0|[1-9]\d*)$/.test(args.inputSequence),
      async ({ call, core }, name, args) => {
        const next = nextBy.get(core) ?? new Map<string, number>();
        nextBy.set(core, next);
        const key = String(args.leaseId);
        // The next sequence it expects, learned from what Lomi acknowledged: a repeat or a gap becomes that one.
        const expected = next.get(key) ?? Number(args.inputSequence);
        const reply = await call(name, { ...args, inputSequence: String(expected) });
        if (okDataOf(reply)?.acknowledged === "dispatched") next.set(key, expected + 1);
        return reply;
      },
    ),
  },
};
