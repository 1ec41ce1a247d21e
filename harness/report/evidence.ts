import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CAPABILITIES } from "../run/capabilities.js";
import { historyFileName } from "../history/format.js";
import { retriedOf, triesOf, type Attempt } from "./attempts.js";
import { baselineFileOf, baselineFileSchema, baselineOf, NO_BASELINE } from "./baseline.js";
import type { RunInputs } from "./judge-run.js";
import type { Provenance } from "./provenance.js";
import { invocationSchema, rerunOfSchema } from "./run-record.js";
import type { MessageCollector } from "./message-collector.js";
import { notRunResult, scenarioResults, type ScenarioResult } from "./scenario-results.js";
import type { Rule } from "../rules.js";
import { scenarioKey, type ScenarioEntry } from "../run/feature-catalogue.js";
import { combineRepetitions } from "./repetitions.js";
import { canonical } from "../text/canonical-json.js";

// What a run's verdicts are derived from, written into conformance.json with one digest the badge
// carries too: the message streams and each scenario's history (files, by sha256), and what the run
// was judged with besides them (the inputs). `lomi-conformance verify` derives the verdicts again
// from the same files and inputs, by the same functions the run used, without the broker.

export const EVIDENCE_FORMAT = "lomi-evidence/1";

/** The message stream of a run, and of each repetition after the first (--repeat), from its reports folder. */
export const MESSAGES_FILE = "messages.ndjson";
export const REPEATS_DIR = "repeats";
/** Where a run keeps each scenario's history unless --histories says otherwise, in its reports folder. */
export const DEFAULT_HISTORIES = "histories";
export const streamFiles = (repeat: number | undefined): string[] => [
  MESSAGES_FILE,
  ...Array.from({ length: Math.max(0, (repeat ?? 1) - 1) }, (_, i) => `${REPEATS_DIR}/${i + 2}/${MESSAGES_FILE}`),
];

/** The scenarios a stopped run did not finish (by scenarioKey, in the order it would have run them), and what each says. */
export const unfinishedSchema = z.strictObject({ each: z.string(), keys: z.array(z.string()) });
export type Unfinished = z.infer<typeof unfinishedSchema>;

const shardTimesSchema = z.strictObject({
  parts: z.array(z.strictObject({ shard: z.string(), scenarios: z.number(), durationMs: z.number(), wallMs: z.number() })),
  longest: z.strictObject({ shard: z.string(), wallMs: z.number() }),
});

/** What a run was judged with besides its scenarios' results (judge-run.ts RunInputs, as JSON). */
export const judgementInputsSchema = z.strictObject({
  tags: z.string().nullable(),
  shard: z.string().optional(),
  selection: z.string().optional(),
  command: z.string().optional(),
  baseline: z.strictObject({ file: z.string(), content: baselineFileSchema }).nullable(),
  level: z.enum(["must", "should", "may"]),
  requireAll: z.boolean(),
  profile: z.strictObject({ name: z.string(), lacks: z.array(z.enum(CAPABILITIES)), elsewhere: z.string() }),
  broker: z.strictObject({ adapter: z.string(), serverInfo: z.strictObject({ name: z.string(), version: z.string() }).nullable() }),
  seed: z.number(),
  startedAt: z.string(),
  durationMs: z.number(),
  stopped: z.string().optional(),
  unfinished: unfinishedSchema.optional(),
  invocation: invocationSchema.optional(),
  rerunOf: rerunOfSchema.optional(),
  flakyOk: z.boolean(),
  replaySeed: z.number().optional(),
  repeat: z.number().int().min(2).optional(),
  /** A merged run's shard times, shown in its reports. */
  shards: shardTimesSchema.optional(),
  /** Where the scenarios' histories are, from the reports folder. */
  histories: z.string(),
});
export type JudgementInputs = z.infer<typeof judgementInputsSchema>;

export const evidenceSchema = z.strictObject({
  format: z.literal(EVIDENCE_FORMAT),
  /** sha256 of the canonical JSON of the inputs, the files and the run's provenance: the one figure the badge carries. */
  digest: z.string(),
  inputs: judgementInputsSchema,
  /** Each file of evidence, by its path from the reports folder: its sha256. */
  files: z.record(z.string(), z.string()),
});
export type Evidence = z.infer<typeof evidenceSchema>;

const sha256 = (bytes: string | Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** The digest of a run's evidence: what verify recomputes, and the badge shows. */
export const evidenceDigest = (inputs: JudgementInputs, files: Record<string, string>, provenance: Provenance | undefined) =>
  sha256(canonical({ format: EVIDENCE_FORMAT, inputs, files, provenance }));

/** A run's inputs as its evidence records them. */
export function recordedInputs(
  i: RunInputs & { shards?: JudgementInputs["shards"]; unfinished?: Unfinished },
  reports: string,
  historiesDir: string,
): JudgementInputs {
  return judgementInputsSchema.parse({
    tags: i.tags ?? null,
    ...(i.shard !== undefined ? { shard: i.shard } : {}),
    ...(i.selection !== undefined ? { selection: i.selection } : {}),
    ...(i.command !== undefined ? { command: i.command } : {}),
    baseline: i.baselineFile === undefined ? null : { file: i.baselineFile, content: baselineFileOf(i.baseline) },
    level: i.level,
    requireAll: i.requireAll,
    profile: { name: i.profile.name, lacks: [...i.profile.lacks], elsewhere: i.profile.elsewhere },
    broker: { adapter: i.broker.adapter, serverInfo: i.broker.serverInfo ?? null },
    seed: i.seed,
    startedAt: i.startedAt,
    durationMs: i.durationMs,
    ...(i.stopped !== undefined ? { stopped: i.stopped } : {}),
    ...(i.unfinished && i.unfinished.keys.length > 0 ? { unfinished: i.unfinished } : {}),
    ...(i.invocation ? { invocation: i.invocation } : {}),
    ...(i.rerunOf ? { rerunOf: i.rerunOf } : {}),
    flakyOk: i.flakyOk ?? false,
    ...(i.replaySeed !== undefined ? { replaySeed: i.replaySeed } : {}),
    ...(i.repeat !== undefined ? { repeat: i.repeat } : {}),
    ...(i.shards ? { shards: i.shards } : {}),
    histories: path.relative(reports, historiesDir) || ".",
  });
}

/** The run's inputs again, from what its evidence records, for judgeRun. */
export function runInputsOf(
  inputs: JudgementInputs,
  rules: Rule[],
  suite: readonly ScenarioEntry[],
  judged: { results: ScenarioResult[]; attempts: Map<string, Attempt[]> },
): RunInputs & { shards?: JudgementInputs["shards"] } {
  const { tags, baseline, broker, unfinished: _u, histories: _h, shards, ...rest } = inputs;
  return {
    ...rest,
    rules,
    suite,
    tags: tags ?? undefined,
    results: judged.results,
    attempts: judged.attempts,
    baseline: baseline ? baselineOf(baseline.file, baseline.content) : NO_BASELINE,
    baselineFile: baseline?.file,
    broker: { adapter: broker.adapter, serverInfo: broker.serverInfo ?? undefined },
    ...(shards ? { shards } : {}),
  };
}

/** One message stream, collected, and its scenarios judged once from that view: a run's reports, merge and verify all read these. */
export interface JudgedStream {
  messages: MessageCollector;
  results: ScenarioResult[];
  /** Every finished attempt of each scenario, by `uri:name`. */
  tries: Map<string, Attempt[]>;
}

export const judgeStream = (messages: MessageCollector): JudgedStream => ({ messages, results: scenarioResults(messages), tries: triesOf(messages) });

/**
 * The scenarios a run judged, from its judged message streams: one result each (the repetitions'
 * combined under --repeat), the attempts of those tried more than once, and those a stopped run did
 * not finish, not run. A merge of shards gives them in the suite's order, as an unsharded run with
 * one worker does. The run concludes from this, and verify derives it again.
 */
export function judgedScenarios(
  streams: readonly JudgedStream[],
  how: { unfinished?: Unfinished | undefined; merged?: boolean },
  suite: readonly ScenarioEntry[],
): { results: ScenarioResult[]; attempts: Map<string, Attempt[]> } {
  const [first] = streams;
  const judged = streams.length > 1 ? combineRepetitions(streams) : { results: [...(first?.results ?? [])], attempts: retriedOf(first?.tries ?? new Map()) };
  if (how.merged) {
    const order = new Map(suite.map((s, i) => [scenarioKey(s), i]));
    judged.results.sort((a, b) => (order.get(scenarioKey(a)) ?? Infinity) - (order.get(scenarioKey(b)) ?? Infinity));
  }
  const { unfinished } = how;
  if (!unfinished) return judged;
  const byKey = new Map(suite.map((s) => [scenarioKey(s), s]));
  return { ...judged, results: [...judged.results, ...unfinished.keys.flatMap((k) => (byKey.has(k) ? [notRunResult(byKey.get(k)!, unfinished.each)] : []))] };
}

/**
 * The files of a run's evidence, by path from the reports folder, and their sha256: its message
 * streams, and the history of each scenario (each repetition's) the run wrote one for.
 */
export function evidenceFiles(reports: string, inputs: JudgementInputs, results: readonly ScenarioResult[]): Record<string, string> {
  const files: Record<string, string> = {};
  const add = (relative: string) => {
    const file = path.resolve(reports, relative);
    if (existsSync(file)) files[relative] = sha256(readFileSync(file));
  };
  for (const f of streamFiles(inputs.repeat)) add(f);
  for (const s of results)
    for (let r = 1; r <= (inputs.repeat ?? 1); r++) add(path.posix.join(inputs.histories.split(path.sep).join("/"), historyFileName(s, r)));
  return files;
}

/** A run's evidence: its inputs, its files' digests, and the one digest over them and its provenance. */
export function evidenceOf(reports: string, inputs: JudgementInputs, results: readonly ScenarioResult[], provenance: Provenance | undefined): Evidence {
  const files = evidenceFiles(reports, inputs, results);
  return { format: EVIDENCE_FORMAT, digest: evidenceDigest(inputs, files, provenance), inputs, files };
}
