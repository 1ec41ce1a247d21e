import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { checkPartSet } from "../../harness/shards/part-set.js";
import { shardSpec } from "../../harness/shards/shard-option.js";
import { splitSelection } from "../../harness/shards/split.js";
import { workersOrder } from "../../harness/shards/workers-order.js";

const scenarios = (n: number) => Array.from({ length: n }, (_, i) => ({ uri: "features/a.feature", name: `s${i}` }));

test("--shard takes K/N with 1 ≤ K ≤ N; anything else is refused saying what it takes", () => {
  assert.deepEqual(shardSpec.parse("2/3"), { index: 2, count: 3 });
  for (const bad of ["0/3", "4/3", "x", "1/0", "1/3/4", ""]) {
    const read = shardSpec.safeParse(bad);
    assert.equal(read.success, false, bad);
    assert.equal(read.error?.issues[0]?.message, `must be K/N with 1 ≤ K ≤ N (e.g. --shard 2/3 runs the second of three parts), not ${bad}`, bad);
  }
});

test("the split is disjoint, covers the selection, keeps the suite's order and balances by duration, longest first", () => {
  const all = scenarios(10);
  const durations = Object.fromEntries(all.map((s, i) => [`${s.uri}:${s.name}`, i === 0 ? 90 : 10]));
  const parts = splitSelection(all, durations, 3);
  assert.deepEqual(
    parts
      .flat()
      .map((s) => s.name)
      .sort(),
    all.map((s) => s.name).sort(),
  );
  assert.equal(new Set(parts.flat()).size, 10);
  // The 90 ms scenario alone in its part; the nine of 10 ms shared by the other two.
  assert.deepEqual(
    parts.map((p) => p.length),
    [1, 5, 4],
  );
  for (const p of parts)
    assert.deepEqual(
      p,
      [...p].sort((a, b) => all.indexOf(a) - all.indexOf(b)),
    );
  assert.deepEqual(splitSelection(all, durations, 3), parts, "every shard computes the same split");
});

test("a scenario without a measured duration weighs the mean of the measured ones; with none measured, all weigh alike", () => {
  const all = scenarios(4);
  const parts = splitSelection(all, { "features/a.feature:s0": 30, "features/a.feature:s1": 10 }, 2);
  // Weights 30, 10, 20, 20: 30 + 10 against 20 + 20.
  assert.deepEqual(
    parts.map((p) => p.map((s) => s.name)),
    [
      ["s0", "s1"],
      ["s2", "s3"],
    ],
  );
  assert.deepEqual(
    splitSelection(all, {}, 2).map((p) => p.length),
    [2, 2],
  );
});

test("parts of one run: another run's part, a part given twice or one missing is refused naming it", () => {
  const fields = { seed: "seed" };
  const part = (dir: string, index: number, seed = 1, count = 3) => ({ dir, index, count, run: { seed } });
  assert.doesNotThrow(() => checkPartSet([part("a", 1), part("c", 3), part("b", 2)], fields, "shard"));
  assert.throws(
    () => checkPartSet([part("a", 1), part("b", 2, 2), part("c", 3)], fields, "shard"),
    /b is shard 2\/3 of another run: its seed is 2, where a's is 1/,
  );
  assert.throws(() => checkPartSet([part("a", 1), part("b", 2, 1, 4), part("c", 3)], fields, "shard"), /b is shard 2\/4 of another run: its shard count is 4/);
  assert.throws(() => checkPartSet([part("a", 1), part("b", 2), part("b2", 2), part("c", 3)], fields, "part"), /part 2\/3 is given twice: b and b2/);
  assert.throws(() => checkPartSet([part("a", 1), part("c", 3)], fields, "shard"), /shard 2\/3 is missing/);
});

test("parallel workers get the feature files of the longest scenarios first, each file's scenarios in order; one worker keeps the catalogue's order", () => {
  const at = (uri: string, names: string[]) => names.map((name) => ({ uri, name }));
  const all = [
    ...at("features/a.feature", ["a1", "a2"]),
    ...at("features/b.feature", ["b1", "b2", "b3"]),
    ...at("features/c.feature", ["c1"]),
    ...at("features/d.feature", ["d1"]),
  ];
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-order-")), "durations.json");
  // b holds the longest scenario (not its first), c the next; a and d are as short as each other.
  const ms: Record<string, number> = { a1: 10, a2: 20, b1: 5, b2: 900, b3: 5, c1: 300, d1: 20 };
  writeFileSync(file, JSON.stringify({ scenarios: Object.fromEntries(all.map((s) => [`${s.uri}:${s.name}`, ms[s.name]])) }));
  assert.deepEqual(
    workersOrder(all, 2, file).map((s) => s.name),
    ["b1", "b2", "b3", "c1", "a1", "a2", "d1"],
  );
  assert.deepEqual(workersOrder(all, 1, file), all);
});
