import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { configError } from "../harness-error.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

/**
 * What a run's conformance.json records for the runs after it: a rerun of its failures takes its
 * seed and broker from it, a comparison reads its verdicts. Read loosely (only these fields), so the
 * reports of another kit version still compare.
 */
export const scenarioVerdictSchema = z.object({
  name: z.string(),
  uri: z.string(),
  line: z.number().optional(),
  /** The scenario's own verdict: baselined is a failure the baseline expects; flaky failed, then passed on a retry. */
  verdict: z.enum(["pass", "fail", "baselined", "not-applicable", "flaky"]),
  /** Its first attempt's seed: the run seed and its name give it (steps/support.ts). */
  seed: z.number(),
  /** For a failure: the rules it fails. */
  blame: z.array(z.string()).optional(),
  /** A harness fault stopped it: neither way judged. */
  harnessFault: z.boolean().optional(),
  /** Under --retries, each attempt of a scenario tried more than once: its seed, verdict, why it failed, and the command that replays it alone. */
  attempts: z
    .array(z.object({ attempt: z.number(), seed: z.number().optional(), verdict: z.string(), reason: z.string().optional(), replay: z.string() }))
    .optional(),
});
export type ScenarioVerdictEntry = z.infer<typeof scenarioVerdictSchema>;

/** How the run was called, as far as a rerun repeats it: the broker as the command line named it (no token), the call budget, the retries, the scenarios run at once. */
export const invocationSchema = z.object({
  broker: z.array(z.string()),
  timeoutMs: z.number(),
  oracles: z.boolean(),
  retries: z.number().optional(),
  parallel: z.number().optional(),
});
export type Invocation = z.infer<typeof invocationSchema>;

/** On a rerun's reports: the run whose failures it re-ran. */
export const rerunOfSchema = z.object({ reports: z.string(), startedAt: z.string(), headline: z.string(), scenarios: z.number() });
export type RerunOf = z.infer<typeof rerunOfSchema>;

const ruleScenarioSchema = z.object({ name: z.string(), uri: z.string(), line: z.number().nullish(), verdict: z.string() });

export const runRecordSchema = z.object({
  verdict: z.string(),
  headline: z.string(),
  seed: z.number(),
  level: z.string(),
  tags: z.string().nullish(),
  startedAt: z.string(),
  broker: z.object({ adapter: z.string() }),
  rules: z.array(
    z.object({
      id: z.string(),
      level: z.string(),
      title: z.string(),
      verdict: z.string(),
      reason: z.string().nullish(),
      scenarios: z.array(ruleScenarioSchema),
    }),
  ),
  scenarioVerdicts: z.array(scenarioVerdictSchema).optional(),
  invocation: invocationSchema.optional(),
  rerunOf: rerunOfSchema.optional(),
  /** What made it (provenance.ts), read as far as a comparison needs: the kit and the rules. */
  provenance: z.object({ kit: z.object({ name: z.string(), version: z.string() }), rules: z.object({ digest: z.string() }) }).optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

export const RUN_RECORD_FILE = "conformance.json";

/** A reports folder's run, or a configuration error (exit 2) saying what is wrong with it. */
export function readRunRecord(dir: string): RunRecord {
  const file = path.join(dir, RUN_RECORD_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const missing = systemCodeOf(error) === "ENOENT";
    throw configError(
      `${dir}: ${missing ? `no ${RUN_RECORD_FILE}; give the --reports folder of a conformance run (or of a merge of its shards)` : `${RUN_RECORD_FILE} does not read: ${messageOf(error)}`}`,
    );
  }
  const parsed = runRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(`${file} is not a conformance run's report (at ${issue?.path.join(".") || "(root)"}: ${issue?.message})`);
  }
  return parsed.data;
}

/**
 * Each scenario's own verdict: as recorded, or, from reports that predate the record, as the rules
 * saw it (a failure in any rule fails it; not applicable only where no rule judged it).
 */
export function scenarioVerdictsOf(run: RunRecord): Array<Pick<ScenarioVerdictEntry, "name" | "uri" | "line" | "verdict">> {
  if (run.scenarioVerdicts) return run.scenarioVerdicts;
  const byKey = new Map<string, { name: string; uri: string; line?: number; verdicts: Set<string> }>();
  for (const s of run.rules.flatMap((r) => r.scenarios)) {
    const key = `${s.uri}:${s.name}`;
    const entry = byKey.get(key) ?? { name: s.name, uri: s.uri, ...(s.line != null ? { line: s.line } : {}), verdicts: new Set<string>() };
    entry.verdicts.add(s.verdict);
    byKey.set(key, entry);
  }
  const worst = ["fail", "baselined", "pass", "not-applicable"] as const;
  return [...byKey.values()].map(({ verdicts, ...s }) => ({ ...s, verdict: worst.find((v) => verdicts.has(v)) ?? "not-applicable" }));
}

/** The invocation a reports folder records, if it reads as one (a shard's, for its merge to pass on). */
export function recordedInvocation(dir: string): Invocation | undefined {
  try {
    return readRunRecord(dir).invocation;
  } catch {
    return undefined;
  }
}
