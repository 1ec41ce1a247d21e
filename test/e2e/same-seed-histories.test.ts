import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { VARIANTS } from "../../variants/index.js";

// The same seed replays the same run: these histories were recorded by the kit before the harness was
// sorted into folders (issue "One step in structure"), and a run today on the same seed must write
// them again byte for byte; so must a legal variant that settles in its own time, whose histories
// were recorded once its timers went through the time port (issue 47). A change meant to alter what
// a run does rewrites them:
// LOMI_UPDATE_SAME_SEED=1 node --import tsx --test test/e2e/same-seed-histories.test.ts
const GOLDEN = path.resolve("fixtures/same-seed");
const update = process.env.LOMI_UPDATE_SAME_SEED === "1";

const kit = (args: string[]) => {
  const run = spawnSync(process.execPath, ["bin/lomi-conformance.js", ...args], { encoding: "utf8" });
  assert.ok(run.status === 0 || run.status === 1, `lomi-conformance ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
};

/** The first line where two histories part, so a failure says which record changed. */
function firstDifference(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  const at = a.findIndex((line, i) => line !== b[i]);
  const line = at === -1 ? a.length : at;
  return `line ${line + 1}:\n  recorded: ${(a[line] ?? "(end)").slice(0, 400)}\n  today:    ${(b[line] ?? "(end)").slice(0, 400)}`;
}

function sameFiles(goldenDir: string, todayDir: string, names: readonly string[]): void {
  for (const name of names) {
    const today = readFileSync(path.join(todayDir, name), "utf8");
    if (update) copyFileSync(path.join(todayDir, name), path.join(goldenDir, name));
    else {
      const recorded = readFileSync(path.join(goldenDir, name), "utf8");
      assert.ok(recorded === today, `${name} differs from the history recorded on the same seed, at ${firstDifference(recorded, today)}`);
    }
  }
}

/** A run of the suite on seed 1 writes every scenario's history as recorded in `goldenDir`. */
function sameScenarioHistories(goldenDir: string, args: string[]): void {
  const dir = mkdtempSync(path.join(tmpdir(), "same-seed-"));
  try {
    kit([...args, "--seed", "1", "--histories", path.join(dir, "h"), "--reports", path.join(dir, "r")]);
    const names = readdirSync(path.join(dir, "h")).sort();
    if (!update) assert.deepEqual(names, readdirSync(goldenDir).sort(), "the run wrote the histories of other scenarios");
    sameFiles(goldenDir, path.join(dir, "h"), names);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the same seed writes the same scenario histories, byte for byte, as the kit recorded them", () => {
  sameScenarioHistories(path.join(GOLDEN, "scenarios"), ["--tags", "@IDEM-01 or @REV-01 or @EVT-01"]);
});

// Its settlements wait on the broker's own timers, which move in-process only as far as the harness
// waits: how fast this machine runs cannot change how many reads see an operation unsettled.
const background = VARIANTS.find((v) => (v.policy.settleAfterMs?.[1] ?? 0) > 0);

test("a variant that settles in the background writes the same histories on the same seed, byte for byte, the scenarios its difference touches", () => {
  assert.ok(background, "a legal variant settles in the background");
  sameScenarioHistories(path.join(GOLDEN, background.name), ["--variant", background.name, "--tags", background.touches]);
});

test("the same explore seed finds the same violation through the same history, byte for byte", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "same-seed-explore-"));
  try {
    kit(["explore", "--mutant", "idem-fresh-operation-per-retry", "--seed", "7", "--runs", "30", "--reports", dir]);
    sameFiles(GOLDEN, dir, ["explore-history.jsonl"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
