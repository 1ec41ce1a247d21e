import assert from "node:assert/strict";
import { test } from "node:test";
import type { OperationState } from "../../protocol/states.js";
import { eventPathProblems as judged, type PathDemand, type PathEvent } from "../../steps/event-path.js";

/** Every problem, legality and the demand alike. */
const eventPathProblems = (events: readonly PathEvent[], demand: PathDemand) => {
  const { illegal, unmet } = judged(events, demand);
  return [...illegal.map((p) => p.text), ...unmet];
};

/** Events for a path of states, each naming the one before it. */
const path = (...states: OperationState[]): PathEvent[] =>
  states.map((state, i) => ({ sequence: String(i + 1), previousState: i === 0 ? null : states[i - 1]!, state, effectState: "none" }));

test("the reference path and a path without running before the decision both pass the close guard's demand", () => {
  const demand = { reaches: "succeeded" as const, through: ["awaiting_user", "running"] as OperationState[] };
  assert.deepEqual(eventPathProblems(path("queued", "running", "awaiting_user", "running", "succeeded"), demand), []);
  assert.deepEqual(eventPathProblems(path("queued", "awaiting_user", "running", "succeeded"), demand), []);
});

test("settling straight from awaiting_user after an approval that let work run fails the demand for running", () => {
  const problems = eventPathProblems(path("queued", "awaiting_user", "succeeded"), { reaches: "succeeded", through: ["awaiting_user", "running"] });
  assert.ok(
    problems.some((p) => /running is missing/.test(p)),
    problems.join("\n"),
  );
});

test("an illegal transition, a repeated transition and a dropped running all fail", () => {
  assert.ok(eventPathProblems(path("queued", "succeeded"), { reaches: "succeeded" }).some((p) => /not a legal transition/.test(p)));
  const twice = [...path("queued", "running"), { sequence: "3", previousState: "running", state: "running", effectState: "none" } as PathEvent];
  assert.ok(eventPathProblems(twice, { reaches: "running" }).some((p) => /not a legal transition/.test(p)));
  const gap = path("queued", "running", "succeeded").filter((e) => e.state !== "running");
  assert.ok(eventPathProblems(gap, { reaches: "succeeded" }).length > 0);
});

test("an effect change within a state is not a repeated transition", () => {
  const events = [...path("queued", "running"), { sequence: "3", previousState: "running", state: "running", effectState: "unknown" } as PathEvent];
  assert.deepEqual(eventPathProblems(events, { reaches: "running" }), []);
});

test("the feed must agree with what receipt reads showed, and start at admission", () => {
  assert.ok(eventPathProblems(path("queued", "running", "succeeded"), { reaches: "succeeded", observed: ["cancelling"] }).some((p) => /cancelling/.test(p)));
  assert.ok(
    eventPathProblems(
      path("running", "succeeded").map((e, i) => (i === 0 ? { ...e, previousState: "queued" as const } : e)),
      { reaches: "succeeded" },
    ).length > 0,
  );
  assert.deepEqual(eventPathProblems(path("queued", "cancelled"), { reaches: "cancelled", from: "queued" }), []);
  assert.ok(eventPathProblems(path("queued", "running", "cancelling", "cancelled"), { reaches: "cancelled", from: "queued" }).length > 0);
  assert.ok(eventPathProblems([], { reaches: "succeeded" }).length > 0);
});
