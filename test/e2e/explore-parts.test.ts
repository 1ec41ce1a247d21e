import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { judgedRuns } from "../support/runs.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-explore-parts-"));

type Report = { result: { runs: number; steps: number; faults: Record<string, number> }; violations?: Array<{ replay: string }>; parts?: unknown[] };
const read = (reports: string) => JSON.parse(readFileSync(path.join(reports, "explore.json"), "utf8")) as Report;

test("four explore parts of 2 runs merge into 8 runs: the seed's first 8, as one campaign of --runs 8 explores them", async () => {
  const common = ["explore", "--seed", "4", "--runs", "2", "--steps", "12"];
  const parts: string[] = [];
  for (let k = 1; k <= 4; k++) {
    const reports = path.join(dir, `part-${k}`);
    const run = await conformance([...common, "--shard", `${k}/4`, "--reports", reports]);
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, new RegExp(`part ${k}/4: 2 runs`));
    assert.equal(read(reports).result.runs, 2);
    parts.push(reports);
  }
  const merged = path.join(dir, "merged");
  const merge = await conformance(["merge", ...parts, "--reports", merged]);
  assert.equal(merge.code, 0, merge.output);
  const m = read(merged);
  assert.equal(m.result.runs, 4 * 2);
  assert.equal(m.parts?.length, 4);

  const whole = path.join(dir, "whole");
  const one = await conformance(["explore", "--seed", "4", "--runs", "8", "--steps", "12", "--reports", whole]);
  assert.equal(one.code, 0, one.output);
  // The parts explored exactly the runs the whole campaign explores: the same steps and faults per kind.
  assert.deepEqual({ steps: m.result.steps, faults: m.result.faults }, { steps: read(whole).result.steps, faults: read(whole).result.faults });

  const missing = await conformance(["merge", parts[0]!, parts[1]!, parts[3]!, "--reports", path.join(dir, "missing")]);
  assert.equal(missing.code, 2, missing.output);
  assert.match(missing.output, /part 3\/4 is missing/);
  const other = path.join(dir, "other-seed");
  assert.equal((await conformance(["explore", "--seed", "5", "--runs", "2", "--steps", "12", "--shard", "3/4", "--reports", other])).code, 0);
  const foreign = await conformance(["merge", parts[0]!, parts[1]!, other, parts[3]!, "--reports", path.join(dir, "foreign")]);
  assert.equal(foreign.code, 2, foreign.output);
  assert.ok(foreign.output.includes(`${other} is part 3/4 of another run: its seed is 5`), foreign.output);
});

test("parts against a mutant merge into exit 1 keeping each violation's replay line, which reproduces it alone, without --shard", async () => {
  const parts: string[] = [];
  for (let k = 1; k <= 2; k++) {
    const reports = path.join(dir, `mutant-${k}`);
    const run = await conformance(["explore", "--mutant", "op-failure-as-mcp-error", "--shard", `${k}/2`, "--reports", reports]);
    assert.equal(run.code, 1, run.output);
    parts.push(reports);
  }
  const merged = path.join(dir, "mutant-merged");
  const merge = await conformance(["merge", ...parts, "--reports", merged]);
  assert.equal(merge.code, 1, merge.output);
  const violations = read(merged).violations ?? [];
  assert.equal(violations.length, 2);
  assert.match(readFileSync(path.join(merged, "explore.md"), "utf8"), /receipts-readable/);
  const replay = /^lomi-conformance (explore .*)$/.exec(violations[1]!.replay)?.[1];
  assert.ok(replay && !replay.includes("--shard"), violations[1]!.replay);
  const again = path.join(dir, "again");
  const args = [...replay.matchAll(/"([^"]*)"|(\S+)/g)].map((x) => x[1] ?? x[2]!);
  const replayed = await conformance([...args, "--reports", again]);
  assert.equal(replayed.code, 1, replayed.output);
  assert.equal(readFileSync(path.join(again, "explore-history.jsonl"), "utf8"), readFileSync(path.join(parts[1]!, "explore-history.jsonl"), "utf8"));
});
