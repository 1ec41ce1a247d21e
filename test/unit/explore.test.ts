import assert from "node:assert/strict";
import { test } from "node:test";
import { InProcessAdapter } from "../../harness/adapters/in-process.js";
import { explore, type ExploreOptions } from "../../harness/explore/explore.js";
import { formatHistory } from "../../harness/history/format.js";
import { MUTANTS } from "../../mutants/index.js";
import { readWorldFile } from "../../simulator/world-file.js";

const options = (seed: number, runs: number, steps: number): ExploreOptions => ({
  seed,
  runs,
  steps,
  timeBudgetS: 600,
  run: { adapter: "in-process", seed: 1, timeoutMs: 10_000 },
  world: readWorldFile(),
});

async function histories(seed: number): Promise<string[]> {
  const all: string[] = [];
  const result = await explore({ ...options(seed, 3, 30), onHistory: (records) => all.push(formatHistory(records)) });
  assert.equal(result.violation, undefined, "the reference broker breaks no invariant");
  return all;
}

test("the same seed and code give the same histories, byte for byte; another seed gives others", async () => {
  const first = await histories(11);
  const again = await histories(11);
  assert.equal(first.length, 3);
  assert.deepEqual(again, first);
  assert.ok(first.some((h) => h.split("\n").length > 10), "the runs did something");
  assert.notDeepEqual(await histories(12), first);
});

test("a short explore of the reference broker injects faults of several kinds and finds no violation", async () => {
  const result = await explore(options(5, 8, 40));
  assert.equal(result.violation, undefined, JSON.stringify(result.violation?.invariants));
  assert.equal(result.runs, 8);
  assert.ok(result.steps > 40, `${result.steps} steps`);
  const kinds = Object.entries(result.faults).filter(([, n]) => n > 0).map(([k]) => k);
  assert.ok(kinds.length >= 5, `faults of ${kinds.join(", ")}`);
});

test("a violation is shrunk, and its replay gives the same case and history again", async () => {
  const mutant = MUTANTS.find((m) => m.name === "cancel-settled-reported-cancelled")!;
  const adapter = () => new InProcessAdapter(10_000, mutant.parts);
  const found = await explore({ ...options(1, 100, 60), adapter });
  const v = found.violation;
  assert.ok(v, "the mutant is found");
  assert.deepEqual(v.invariants.map((f) => f.id), ["legal-transitions"]);
  assert.ok(v.steps.length <= 4, `shrunk to ${v.steps.length} steps: ${v.steps.join("; ")}`);
  const replayed = await explore({ ...options(1, 100, 60), adapter, replay: { path: v.path, replayPath: v.replayPath } });
  assert.equal(replayed.runs, 1);
  assert.deepEqual(replayed.violation?.steps, v.steps);
  assert.equal(formatHistory(replayed.violation!.history), formatHistory(v.history));
});
