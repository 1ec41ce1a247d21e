import { runtimeRef } from "../protocol/tools/input.js";
import type { Mutant } from "./mutant.js";
import { sessionWrappingPicked, type Args } from "./rewriting-session.js";

/**
 * A broker that builds Lomi's runtime from the fields it finds, as a shortcut for the union: a
 * terminalSessionId makes a terminal runtime, a panelId and generation an Android one, whatever the
 * kind says and whatever else the runtime carries.
 */
function inferred(runtime: unknown): Args | undefined {
  if (typeof runtime !== "object" || runtime === null) return undefined;
  const r = runtime as Args;
  const guess =
    typeof r.terminalSessionId === "string"
      ? { kind: "terminal", terminalSessionId: r.terminalSessionId }
      : { kind: "android", panelId: r.panelId, generation: r.generation };
  return runtimeRef.safeParse(guess).success ? guess : undefined;
}

export const schRuntimeKindInferred: Mutant = {
  name: "sch-runtime-kind-inferred",
  family: "SCH",
  // SCH-11: "a runtime that mixes terminal and Android fields, or names no known kind, is refused with INVALID_ARGUMENT naming the field".
  breaks: ["SCH-11"],
  defect:
    "lomi_lease_acquire reads the runtime's kind from the fields it carries (a terminalSessionId makes it a terminal), so a runtime mixing terminal and Android fields, or naming no known kind, is granted a lease instead of refused",
  parts: {
    session: sessionWrappingPicked(
      ({ tool, args }) => tool === "lomi_lease_acquire" && !runtimeRef.safeParse(args.runtime).success && inferred(args.runtime) !== undefined,
      ({ call }, name, args) => call(name, { ...args, runtime: inferred(args.runtime) }),
    ),
  },
};
