import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { judgedRuns } from "../support/runs.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-shards-"));
/** 14 quick scenarios of three rules: enough for three shards of several scenarios each. */
const TAGS = "@IDEM-02 or @REV-01 or @OP-03";
const SELECTED = 14;

/**
 * conformance.json without what differs from run to run however it was split: times and the shards'
 * own; of its evidence, the histories' digests stay (the same seed makes the same histories) and the
 * message stream's go (it holds the times), with the digest over them all.
 */
const judged = (reports: string) =>
  JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8"), (key, value) =>
    ["startedAt", "durationMs", "shards", "command", "digest", "messages.ndjson"].includes(key) ? undefined : value,
  ) as Record<string, unknown>;

/** Runs the shards one after another (two cores), each into its own folder, as a CI matrix's jobs would. */
async function shards(name: string, count: number, args: string[]): Promise<string[]> {
  const dirs: string[] = [];
  for (let k = 1; k <= count; k++) {
    const reports = path.join(dir, `${name}-${k}`);
    const run = await conformance(["--shard", `${k}/${count}`, ...args, "--reports", reports]);
    assert.ok(run.code === 0 || run.code === 1, run.output);
    assert.match(run.output, new RegExp(`\\[shard ${k}/${count}\\] \\[ *1/\\d+\\] `), "each progress line names its shard");
    dirs.push(reports);
  }
  return dirs;
}

test("three shards merged judge as the unsharded run on the same seed, apart from timings: same verdicts, scenarios, exit code", async () => {
  const whole = path.join(dir, "whole");
  const unsharded = await conformance(["--tags", TAGS, "--seed", "5", "--reports", whole]);
  assert.equal(unsharded.code, 0, unsharded.output);
  const parts = await shards("ref", 3, ["--tags", TAGS, "--seed", "5"]);
  const lists = parts.map((p) => JSON.parse(readFileSync(path.join(p, "shard.json"), "utf8")).scenarios as string[]);
  assert.equal(lists.flat().length, SELECTED);
  assert.equal(new Set(lists.flat()).size, SELECTED, "the shards' scenarios are disjoint and cover the selection");
  assert.ok(lists.every((l) => l.length > 0));

  const merged = path.join(dir, "ref-merged");
  // In another order than 1, 2, 3: the merge puts the results in the suite's order.
  const merge = await conformance(["merge", parts[2]!, parts[0]!, parts[1]!, "--reports", merged]);
  assert.equal(merge.code, 0, merge.output);
  assert.deepEqual(judged(merged), judged(whole));
  for (const f of ["conformance.md", "conformance.html", "conformance.svg", "junit.xml", "cucumber.html", "messages.ndjson"])
    assert.ok(existsSync(path.join(merged, f)), f);
  const shardsShown = JSON.parse(readFileSync(path.join(merged, "conformance.json"), "utf8")).shards as {
    parts: Array<{ shard: string; wallMs: number }>;
    longest: { shard: string };
  };
  assert.deepEqual(
    shardsShown.parts.map((p) => p.shard),
    ["1/3", "2/3", "3/3"],
  );
  assert.equal(shardsShown.longest.shard, shardsShown.parts.reduce((a, p) => (p.wallMs > a.wallMs ? p : a)).shard);
  assert.match(readFileSync(path.join(merged, "conformance.md"), "utf8"), /Shards: 1\/3 [\d.]+ s .*longest \d\/3/);
  assert.equal(readFileSync(path.join(merged, "junit.xml"), "utf8").match(/<testcase /g)?.length, SELECTED + 1, "each scenario and the gate");

  // A shard missing, given twice, or of another run: exit 2 naming it, never a smaller run.
  const missing = await conformance(["merge", parts[0]!, parts[2]!, "--reports", path.join(dir, "m1")]);
  assert.equal(missing.code, 2, missing.output);
  assert.match(missing.output, /shard 2\/3 is missing/);
  assert.match(readFileSync(path.join(dir, "m1", "conformance.json"), "utf8"), /"verdict": "not-run"/);
  const twice = await conformance(["merge", parts[0]!, parts[1]!, parts[1]!, parts[2]!, "--reports", path.join(dir, "m2")]);
  assert.equal(twice.code, 2, twice.output);
  assert.match(twice.output, /shard 2\/3 is given twice/);
  // One shard of another run is enough to be foreign.
  const foreignShard = path.join(dir, "seed6-2");
  assert.ok([0, 1].includes((await conformance(["--shard", "2/3", "--tags", TAGS, "--seed", "6", "--reports", foreignShard])).code ?? 2));
  const foreign = await conformance(["merge", parts[0]!, foreignShard, parts[2]!, "--reports", path.join(dir, "m3")]);
  assert.equal(foreign.code, 2, foreign.output);
  assert.ok(foreign.output.includes(`${foreignShard} is shard 2/3 of another run: its seed is 6`), foreign.output);
  // A tampered manifest (another kit version) is as foreign.
  const tampered = path.join(dir, "tampered");
  cpSync(parts[1]!, tampered, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(tampered, "shard.json"), "utf8"));
  manifest.run.kitVersion = "9.9.9";
  writeFileSync(path.join(tampered, "shard.json"), JSON.stringify(manifest));
  const other = await conformance(["merge", parts[0]!, tampered, parts[2]!, "--reports", path.join(dir, "m4")]);
  assert.equal(other.code, 2, other.output);
  assert.match(other.output, /of another run: its kit version is "9\.9\.9"/);
});

test("a mutant's shards merge into NOT CONFORMANT, exit 1, failing the rule it breaks", async () => {
  // The equality with an unsharded run is shown above; here that a broken broker stays NOT CONFORMANT, failing the rule it breaks.
  const args = ["--tags", "@IDEM-01 or @OP-03", "--mutant", "idem-fresh-operation-per-retry"];
  const parts = await shards("mutant", 2, args);
  const merged = path.join(dir, "mutant-merged");
  const merge = await conformance(["merge", ...parts, "--reports", merged]);
  assert.equal(merge.code, 1, merge.output);
  assert.match(merge.output, /NOT CONFORMANT/);
  const rules = (judged(merged) as { rules: Array<{ id: string; verdict: string }> }).rules;
  assert.equal(rules.find((r) => r.id === "IDEM-01")?.verdict, "fail");
});

test("--shard that is not K/N with 1 ≤ K ≤ N is refused before anything runs (exit 2)", async () => {
  for (const bad of ["0/3", "4/3", "x"]) {
    const run = await conformance(["--shard", bad, "--reports", path.join(dir, `bad-${bad.replace("/", "-")}`)]);
    assert.equal(run.code, 2, run.output);
    assert.ok(run.output.includes(`--shard must be K/N with 1 ≤ K ≤ N (e.g. --shard 2/3 runs the second of three parts), not ${bad}`), run.output);
  }
});
