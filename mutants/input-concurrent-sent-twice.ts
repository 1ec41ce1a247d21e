import { canonicalJson } from "../reference-broker/fingerprint.js";
import { isOrderedInput } from "../harness/oracles/finding-rules.js";
import type { Mutant } from "./mutant.js";
import { sentPastTheHistory } from "./native-input.js";
import { sessionWrappingPicked } from "./rewriting-session.js";

/** Per broker instance, the ordered inputs on their way to Lomi that its history does not hold yet. */
const onTheirWay = new WeakMap<object, Set<string>>();

export const inputConcurrentSentTwice: Mutant = {
  name: "input-concurrent-sent-twice",
  family: "INPUT",
  // Sent twice, the second is not acknowledged as the first's dispatch (INPUT-03), because both came at once (INPUT-15).
  breaks: ["INPUT-15", "INPUT-03"],
  defect:
    "the broker's check that an inputSequence is taken sees only inputs Lomi has acknowledged: an identical input that arrives while the first is still on its way to Lomi is sent too",
  parts: {
    session: sessionWrappingPicked(
      ({ tool }) => isOrderedInput(tool),
      async (ctx, name, args) => {
        const pending = onTheirWay.get(ctx.core) ?? new Set<string>();
        onTheirWay.set(ctx.core, pending);
        const key = canonicalJson([ctx.clientName(), name, args]);
        if (pending.has(key)) return sentPastTheHistory(ctx, name, args);
        pending.add(key);
        try {
          return await ctx.call(name, args);
        } finally {
          pending.delete(key);
        }
      },
    ),
  },
};
