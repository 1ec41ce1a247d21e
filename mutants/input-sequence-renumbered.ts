import type { Mutant } from "./mutant.js";
import { sessionWrappedBy } from "./rewriting-session.js";

/** Per broker instance, the last inputSequence it sent, per lease (or per tool when there is none). */
const sentBy = new WeakMap<object, Map<string, number>>();

export const inputSequenceRenumbered: Mutant = {
  name: "input-sequence-renumbered",
  family: "INPUT",
  breaks: ["INPUT-03", "INPUT-04", "INPUT-05", "INPUT-06", "INPUT-14", "INPUT-15", "INPUT-18", "INPUT-19"],
  defect: "the broker numbers input itself: a repeated inputSequence is sent again as the next one, and a gap is closed instead of refused",
  parts: {
    session: sessionWrappedBy(({ call, core }, name, args) => {
      const sent = sentBy.get(core) ?? new Map<string, number>();
      sentBy.set(core, sent);
      const given = args.inputSequence;
      if (given === undefined) return call(name, args);
      const key = String(args.leaseId ?? name);
      const last = sent.get(key);
      const next = last === undefined ? Number(given) : last + 1;
      sent.set(key, next);
      return call(name, { ...args, inputSequence: typeof given === "string" ? String(next) : next });
    }),
  },
};
