import assert from "node:assert/strict";
import { test } from "node:test";
import { inFlight } from "../../harness/in-flight.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

test("every index is worked once, never more than the lanes at a time", async () => {
  const done: number[] = [];
  let running = 0;
  let most = 0;
  const finished = await inFlight(50, 4, async (i) => {
    most = Math.max(most, ++running);
    await tick();
    running--;
    done.push(i);
  });
  assert.equal(finished, true);
  assert.deepEqual([...done].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
  assert.equal(most, 4);
});

test("an answer of false ends it early and says so; a throw is rethrown after the calls in flight", async () => {
  const started: number[] = [];
  assert.equal(await inFlight(100, 3, async (i) => (started.push(i), await tick(), i !== 5)), false);
  assert.ok(started.length < 12, `${started.length} started after the stop`);
  let inFlightAtThrow = 0;
  let running = 0;
  await assert.rejects(
    inFlight(100, 3, async (i) => {
      running++;
      await tick();
      running--;
      if (i === 2) {
        inFlightAtThrow = running;
        throw new Error("lost");
      }
    }),
    /lost/,
  );
  assert.equal(running, 0, "the calls in flight ended before the error came back");
  assert.ok(inFlightAtThrow <= 2);
  assert.equal(await inFlight(0, 3, async () => false), true, "nothing to do is done");
});
