import { PROTOTYPE_KEYS } from "../harness/oracles/finding-rules.js";
import type { Mutant } from "./mutant.js";
import { sessionWrappingPicked } from "./rewriting-session.js";

/**
 * A broker written elsewhere "sanitised" its arguments: a "__proto__", "constructor" or "prototype"
 * key is removed before they are judged, so a request that carries one is taken, and dispatched, as
 * if it had not.
 */
export const schPrototypeKeysDropped: Mutant = {
  name: "sch-prototype-keys-dropped",
  family: "SCH",
  // SCH-06: 'a "__proto__", "constructor" or "prototype" key is an unknown field … nothing is dispatched'.
  breaks: ["SCH-06"],
  defect: 'a "__proto__", "constructor" or "prototype" key is silently removed from the arguments instead of refused, so the request is taken without it',
  parts: {
    session: sessionWrappingPicked(
      ({ args }) => typeof args === "object" && args !== null && !Array.isArray(args) && Object.keys(args).some((k) => PROTOTYPE_KEYS.has(k)),
      ({ call }, name, args) => call(name, Object.fromEntries(Object.entries(args).filter(([k]) => !PROTOTYPE_KEYS.has(k)))),
    ),
  },
};
