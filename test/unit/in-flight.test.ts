import assert from "node:assert/strict";
import { test } from "node:test";
import { inFlight, REFUSED_TOGETHER } from "../../harness/connection/in-flight.js";

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
  assert.deepEqual(
    [...done].sort((a, b) => a - b),
    Array.from({ length: 50 }, (_, i) => i),
  );
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

test("a call refused together is made again alone, and the rest go one at a time, each index done once", async () => {
  const done: number[] = [];
  const alone: number[] = [];
  let running = 0;
  let mostAlone = 0;
  let heard = 0;
  const finished = await inFlight(
    30,
    4,
    async (i, together, lane) => {
      running++;
      await tick();
      running--;
      if (together && i === 6) return REFUSED_TOGETHER;
      if (!together) {
        mostAlone = Math.max(mostAlone, running + 1);
        assert.equal(lane, 0, "one at a time runs on the first lane");
        alone.push(i);
      }
      done.push(i);
    },
    () => heard++,
  );
  assert.equal(finished, true);
  assert.deepEqual(
    [...done].sort((a, b) => a - b),
    Array.from({ length: 30 }, (_, i) => i),
    "every index once, the refused one included",
  );
  assert.equal(alone[0], 6, "the refused call is made again first");
  assert.ok(alone.length >= 30 - 10, `the rest went alone (${alone.length})`);
  assert.equal(mostAlone, 1, "alone means nothing else in flight");
  assert.equal(heard, 1);
  assert.equal(await inFlight(5, 2, async (_, together) => (together ? REFUSED_TOGETHER : false)), false, "refused alone too: it stops");
});
