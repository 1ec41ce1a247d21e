import assert from "node:assert/strict";
import { test } from "node:test";
import { describeStartKills } from "../../harness/adapters/broker-adapter.js";

test("the kills of a broker's start are listed in order, each where it landed, repeats of an ending without a time counted", () => {
  const line = describeStartKills({
    storeMs: 57.6,
    starts: [
      { kind: "killed", afterFirstWriteMs: 3.4 },
      { kind: "killed", afterFirstWriteMs: 3.4 },
      { kind: "killed-without-write" },
      { kind: "killed", afterFirstWriteMs: 21.5 },
      { kind: "exited-itself" },
      { kind: "exited-itself" },
      { kind: "exited-itself" },
    ],
  });
  assert.match(line, /^7 starts on a new store/);
  assert.match(line, /took 58 ms from that write/);
  assert.match(line, /: 3 ms, 3 ms, before any write, 22 ms, exited by itself ×3$/);
});
