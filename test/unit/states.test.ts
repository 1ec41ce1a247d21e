import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { canTransition, isSettled, OPERATION_STATES, SETTLED_STATES, TRANSITIONS } from "../../protocol/states.js";

test("settled states have no way out", () => {
  for (const s of SETTLED_STATES) assert.deepEqual(TRANSITIONS[s], [], s);
});

test("every unfinished state can become outcome_unknown (store reopening)", () => {
  for (const s of OPERATION_STATES.filter((x) => !isSettled(x))) assert.ok(canTransition(s, "outcome_unknown"), s);
});

test("nothing returns to queued, and nothing leaves cancelling except to settle", () => {
  for (const s of OPERATION_STATES) assert.equal(canTransition(s, "queued"), false, s);
  for (const to of TRANSITIONS.cancelling) assert.ok(isSettled(to), to);
});

test("any walk along legal transitions ends its life at the first settled state", () => {
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 12 }), (choices) => {
      let state: (typeof OPERATION_STATES)[number] = "queued";
      for (const c of choices) {
        const next: readonly (typeof OPERATION_STATES)[number][] = TRANSITIONS[state];
        if (next.length === 0) {
          assert.ok(isSettled(state));
          return;
        }
        state = next[c % next.length]!;
      }
    }),
  );
});
