// npm run bench:shards [-- --shards N] [--tags EXPR]: the whole suite in-process, unsharded, then in N
// balanced shards one after another (as N machines would run them side by side), then merged.
// Prints the longest shard's scenario time ÷ the unsharded run's (goal ≤ 0.45× for 3 shards), both
// measured in this run; the merge must give the unsharded run's verdict.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";

const { values } = parseArgs({ options: { shards: { type: "string", default: "3" }, tags: { type: "string" } } });
const count = Number(values.shards);
const root = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-shards-"));
const tags = values.tags ? ["--tags", values.tags] : [];

const runSchema = z.object({ verdict: z.string(), durationMs: z.number() });
const manifestSchema = z.object({ durationMs: z.number(), wallMs: z.number(), scenarios: z.array(z.string()) });

function cli(args: string[]): number | null {
  const r = spawnSync(process.execPath, ["bin/lomi-conformance.js", ...args], { encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`lomi-conformance ${args.join(" ")} exited ${r.status}:\n${r.stdout.slice(-2000)}${r.stderr}`);
  return r.status;
}
const readJson = <T>(schema: z.ZodType<T>, file: string) => schema.parse(JSON.parse(readFileSync(file, "utf8")));

const started = Date.now();
const whole = path.join(root, "whole");
cli([...tags, "--reports", whole]);
const wholeRun = readJson(runSchema, path.join(whole, "conformance.json"));
const wholeWall = (Date.now() - started) / 1000;
process.stdout.write(`unsharded: scenarios ${(wholeRun.durationMs / 1000).toFixed(1)} s, process ${wholeWall.toFixed(1)} s, ${wholeRun.verdict}\n`);

const dirs: string[] = [];
for (let k = 1; k <= count; k++) {
  const dir = path.join(root, `shard-${k}`);
  cli(["--shard", `${k}/${count}`, ...tags, "--reports", dir]);
  const m = readJson(manifestSchema, path.join(dir, "shard.json"));
  process.stdout.write(
    `shard ${k}/${count}: ${m.scenarios.length} scenarios, scenarios ${(m.durationMs / 1000).toFixed(1)} s, process ${(m.wallMs / 1000).toFixed(1)} s\n`,
  );
  dirs.push(dir);
}
const merged = path.join(root, "merged");
cli(["merge", ...dirs, "--reports", merged]);
const mergedRun = readJson(runSchema, path.join(merged, "conformance.json"));
if (mergedRun.verdict !== wholeRun.verdict) throw new Error(`the merge says ${mergedRun.verdict}, the unsharded run ${wholeRun.verdict}`);
const manifests = dirs.map((d) => readJson(manifestSchema, path.join(d, "shard.json")));
const longest = Math.max(...manifests.map((m) => m.durationMs));
const longestWall = Math.max(...manifests.map((m) => m.wallMs));
process.stdout.write(
  `longest of ${count} shards ÷ unsharded: scenarios ${(longest / wholeRun.durationMs).toFixed(2)}× (${(longest / 1000).toFixed(1)} s of ${(wholeRun.durationMs / 1000).toFixed(1)} s), ` +
    `process ${(longestWall / 1000 / wholeWall).toFixed(2)}× (${(longestWall / 1000).toFixed(1)} s of ${wholeWall.toFixed(1)} s); merged verdict ${mergedRun.verdict}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
);
