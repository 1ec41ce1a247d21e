import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { DEFAULT_CAMPAIGN, markdownTable, mergeEntries, readEntries, tally, writeEntries, type Entry } from "../../bench/explore-mutants-figures.js";

const entry = (mutant: string, found: Partial<NonNullable<Entry["finding"]>> | null, campaign = DEFAULT_CAMPAIGN): Entry => ({
  mutant,
  declares: ["IDEM-01"],
  campaign,
  finding: found && { oracles: ["idempotency"], rules: ["IDEM-01"], run: 3, shrunkSteps: 2, shrinkCut: false, path: "2:0", replayPath: "AA:q", ...found },
  runs: found ? 3 : 100,
  interrupted: false,
  wallMs: 1000,
  cpuMs: 500,
  loadAverage: 1.5,
  date: "2026-12-03T09:00:00.000Z",
  commit: "abc",
});

test("the table gives a found mutant's oracles, rules, run and shrunk length, and a miss as not found for the docs to say why", () => {
  const table = markdownTable([entry("a", {}), entry("b", { oracles: ["effect-state-agrees"], rules: [], shrunkSteps: 1, shrinkCut: true }), entry("c", null)]);
  const rows = table.split("\n").slice(2);
  assert.deepEqual(rows, [
    "| a | idempotency (IDEM-01) | 3 | 2 steps |",
    "| b | effect-state-agrees (no rule) | 3 | 1 step (the budget ended the shrinking) |",
    "| c | not found in 100 runs | — | — |",
  ]);
});

test("a campaign other than the default is named in its row and in the tally, never passed off as the default", () => {
  const quick = entry("q", null, { ...DEFAULT_CAMPAIGN, timeBudgetS: 20 });
  assert.match(markdownTable([quick]), /\| q \| not found in 100 runs \(seed 1, 100 runs of ≤60 steps, 20 s\) \|/);
  assert.deepEqual(tally([entry("a", {}), quick, entry("c", null)]), { found: 1, of: 3, notDefault: ["q"] });
});

test("entries measured now replace those of the same mutants, the others are kept, in the mutants' order, and a name no longer a mutant is dropped", () => {
  const kept = [entry("a", null), entry("b", null), entry("gone", {})];
  const merged = mergeEntries(kept, [entry("b", {})], ["b", "a", "new"]);
  assert.deepEqual(
    merged.map((e) => [e.mutant, e.finding !== null]),
    [
      ["b", true],
      ["a", false],
    ],
  );
});

test("the file round-trips through its schema; a file of another shape is refused", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-explore-mutants-"));
  const file = path.join(dir, "figures.json");
  assert.deepEqual(readEntries(file), [], "no file yet: nothing measured");
  writeEntries(file, [entry("a", {}), entry("c", null)]);
  assert.deepEqual(readEntries(file), [entry("a", {}), entry("c", null)]);
  writeFileSync(file, JSON.stringify({ format: "lomi-explore-mutants/1", entries: [{ mutant: "a" }] }));
  assert.throws(() => readEntries(file));
});
