import { isDeepStrictEqual } from "node:util";
import { Then } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { fillPlaceholders } from "./placeholders.js";
import { DEFAULT_AGENT, type LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

/** Where `actual` departs from `expected`: objects need the expected keys, arrays the same length, leaves equality. */
function mismatch(actual: unknown, expected: unknown, at: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${at}: expected ${expected.length} item(s), got ${boundedJson(actual)}`;
    for (const [i, item] of expected.entries()) {
      const m = mismatch(actual[i], item, `${at}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return `${at}: expected an object, got ${boundedJson(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const m = mismatch((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (m) return m;
    }
    return undefined;
  }
  return isDeepStrictEqual(actual, expected) ? undefined : `${at}: expected ${boundedJson(expected)}, got ${boundedJson(actual)}`;
}

Then("the reply's data includes:", async function (this: LomiWorld, json: string) {
  const expected = await fillPlaceholders(this, DEFAULT_AGENT, json);
  const problem = mismatch(this.okData(), expected, "data");
  if (problem) throw violation(`${this.lastReply?.tool}'s reply differs at ${problem}`);
});
