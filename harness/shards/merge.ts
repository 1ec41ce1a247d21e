import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import path from "node:path";
import { scenarioCatalogue, scenarioKey } from "../run/feature-catalogue.js";
import { configError } from "../harness-error.js";
import { loadBaseline, NO_BASELINE, type BaselineEntries } from "../report/baseline.js";
import { concludeRun } from "../report/conclude-run.js";
import { recordedInvocation, RUN_RECORD_FILE } from "../report/run-record.js";
import { provenanceSchema, type Provenance } from "../report/provenance.js";
import { DEFAULT_HISTORIES, judgedScenarios, judgeStream } from "../report/evidence.js";
import type { ShardTimes } from "../report/run-summary.js";
import { loadRules } from "../rules.js";
import { writeCucumberHtml } from "./cucumber-html.js";
import { writeDurations } from "./durations.js";
import { fileDigest, readShardManifest, SHARD_MANIFEST } from "./manifest.js";
import { mergeMessageStreams } from "./merge-messages.js";
import { readEnvelopes } from "../report/message-stream.js";
import { collectMessages } from "../report/message-collector.js";
import { checkShardSet } from "./shard-set.js";

export interface MergeOptions {
  /** The shards' report folders, in any order. */
  dirs: string[];
  /** Where the merged reports go (cleared of earlier reports by the caller). */
  reports: string;
  writeBaseline: string | undefined;
  baselineEntries: BaselineEntries;
  writeDurations: string | undefined;
}

/** Each shard's scenario time and wall time, and the longest: what the sharded run took. */
function shardTimes(shards: ReadonlyArray<{ manifest: ReturnType<typeof readShardManifest> }>): ShardTimes {
  const parts = [...shards]
    .sort((a, b) => a.manifest.index - b.manifest.index)
    .map(({ manifest: m }) => ({ shard: `${m.index}/${m.run.count}`, scenarios: m.scenarios.length, durationMs: m.durationMs, wallMs: m.wallMs }));
  const longest = parts.reduce((a, p) => (p.wallMs > a.wallMs ? p : a));
  return { parts, longest: { shard: longest.shard, wallMs: longest.wallMs } };
}

/**
 * `lomi-conformance merge DIR…`: the shards of one conformance run as that run. Their message
 * streams become one, its scenarios are judged as an unsharded run's (in the suite's order, so the
 * reports read the same), and every report is written with one verdict and exit code (0, 1, 2).
 */
export async function mergeShards(o: MergeOptions): Promise<number> {
  const shards = o.dirs.map((dir) => ({ dir, manifest: readShardManifest(dir) }));
  const first = checkShardSet(shards);
  const run = first.manifest.run;

  const merged = mergeMessageStreams(
    shards.map((s) => ({ label: `shard ${s.manifest.index}/${run.count} (${s.dir})`, envelopes: readEnvelopes(path.join(s.dir, "messages.ndjson")) })),
  );
  const messages = path.join(o.reports, "messages.ndjson");
  writeFileSync(messages, merged.map((e) => JSON.stringify(e)).join("\n") + "\n");

  // The suite's order, as an unsharded run (one worker) gives its results.
  const suite = scenarioCatalogue();
  const { results, attempts } = judgedScenarios([judgeStream(collectMessages(merged))], { merged: true }, suite);
  // A shard that stopped half-way (its process killed) left a manifest of scenarios it never finished.
  const finished = new Set(results.map(scenarioKey));
  for (const s of shards) {
    const unfinished = s.manifest.scenarios.filter((k) => !finished.has(k));
    if (unfinished.length > 0)
      throw configError(
        `shard ${s.manifest.index}/${run.count} (${s.dir}) has no result for ${unfinished.length} of its scenarios, e.g. ${unfinished[0]}: its messages.ndjson is not the one its run wrote`,
      );
  }

  const rules = loadRules().rules;
  const baselineFile = run.baseline?.file;
  if (run.baseline && existsSync(run.baseline.file) && fileDigest(run.baseline.file) !== run.baseline.sha256) {
    throw configError(`the baseline ${run.baseline.file} changed since the shards ran: merge judges by the one they ran with`);
  }
  const baseline = baselineFile ? loadBaseline(baselineFile, new Set(rules.map((r) => r.id)), new Set(suite.map((s) => s.name))) : NO_BASELINE;
  const times = shardTimes(shards);
  const startedAt = shards.reduce((earliest, s) => (s.manifest.startedAt < earliest ? s.manifest.startedAt : earliest), first.manifest.startedAt);
  // Every shard took the same options: the first's say how to rerun the merged run's failures.
  const invocation = recordedInvocation(first.dir);
  // Each shard's histories join the merged run's evidence, so verify checks the merged reports as any run's.
  const historiesDir = path.join(o.reports, DEFAULT_HISTORIES);
  const recorded = shards.map((s) => ({ dir: s.dir, ...shardEvidence(s.dir) }));
  for (const s of recorded) if (existsSync(path.resolve(s.dir, s.histories))) cpSync(path.resolve(s.dir, s.histories), historiesDir, { recursive: true });
  const serverInfo = shards.map((s) => s.manifest.serverInfo).find((x) => x !== null) ?? undefined;
  const provenance = recorded[0]?.provenance && {
    ...recorded[0].provenance,
    broker: { ...recorded[0].provenance.broker, serverInfo: serverInfo ?? null },
    startedAt,
  };
  const { code } = concludeRun({
    rules,
    results,
    suite,
    tags: run.tags ?? undefined,
    baseline,
    baselineFile,
    level: run.level,
    requireAll: run.requireAll,
    profile: first.manifest.profile,
    broker: { adapter: run.broker, serverInfo },
    seed: run.seed,
    startedAt,
    // The sharded run took as long as its longest shard's scenarios.
    durationMs: Math.max(...shards.map((s) => s.manifest.durationMs)),
    reports: o.reports,
    writeBaseline: o.writeBaseline,
    baselineEntries: o.baselineEntries,
    shards: times,
    attempts,
    ...(invocation ? { invocation } : {}),
    ...(provenance ? { provenance } : {}),
    evidence: { historiesDir },
  });
  await writeCucumberHtml(path.join(o.reports, "cucumber.html"), merged);
  if (o.writeDurations)
    process.stdout.write(`lomi-conformance: wrote the durations of ${writeDurations(o.writeDurations, results)} scenario(s) to ${o.writeDurations}\n`);
  process.stdout.write(
    `lomi-conformance merge: ${shards.length} shards of seed ${run.seed}; ${times.parts.map((p) => `${p.shard} ${(p.wallMs / 1000).toFixed(1)} s`).join(", ")}; longest ${times.longest.shard}\n`,
  );
  return code;
}

/** What a shard's conformance.json says of its provenance, and where its histories are (its reports' histories/ when it does not say). */
function shardEvidence(dir: string): { provenance: Provenance | undefined; histories: string } {
  const recorded = z
    .object({ provenance: provenanceSchema.optional(), evidence: z.object({ inputs: z.object({ histories: z.string() }) }).optional() })
    .safeParse(JSON.parse(readFileSync(path.join(dir, RUN_RECORD_FILE), "utf8")));
  return {
    provenance: recorded.success ? recorded.data.provenance : undefined,
    histories: (recorded.success && recorded.data.evidence?.inputs.histories) || DEFAULT_HISTORIES,
  };
}

/** Whether the folders hold explore parts (explore.json) rather than conformance shards (shard.json); a mixture is refused. */
export function mergeKind(dirs: readonly string[]): "shards" | "explore" {
  const explore = dirs.filter((d) => existsSync(path.join(d, "explore.json")) && !existsSync(path.join(d, SHARD_MANIFEST)));
  if (explore.length === 0) return "shards";
  if (explore.length === dirs.length) return "explore";
  throw configError(
    `merge takes the folders of one kind: ${explore.join(", ")} hold explore parts (explore.json), ${dirs.filter((d) => !explore.includes(d)).join(", ")} do not`,
  );
}
