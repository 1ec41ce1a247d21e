import assert from "node:assert/strict";
import { test } from "node:test";
import { VirtualTimers } from "../../protocol/virtual-timers.js";

test("virtual timers fire only when the clock is moved past them, in the order they fall due, at their due time", () => {
  const timers = new VirtualTimers();
  const fired: string[] = [];
  const note = (name: string) => () => fired.push(`${name}@${timers.now()}`);
  timers.after(300, note("late"));
  timers.after(100, note("early"));
  timers.after(100, note("early-too"));
  timers.advanceTo(99);
  assert.deepEqual(fired, [], "nothing is due before 100 ms");
  assert.equal(timers.now(), 99);
  timers.advanceTo(500);
  assert.deepEqual(fired, ["early@100", "early-too@100", "late@300"], "due together: in the order they were set");
  assert.equal(timers.now(), 500);
  timers.advanceTo(10);
  assert.equal(timers.now(), 500, "the clock never goes back");
});

test("a cancelled virtual timer never fires; one set by a timer that fires fires in the same move when due by then", () => {
  const timers = new VirtualTimers();
  const fired: number[] = [];
  const cancel = timers.after(50, () => fired.push(-1));
  cancel();
  const every = () => {
    fired.push(timers.now());
    timers.after(40, every);
  };
  timers.after(40, every);
  timers.advanceTo(130);
  assert.deepEqual(fired, [40, 80, 120]);
});
