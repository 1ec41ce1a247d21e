import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { configError } from "../harness-error.js";
import { checkPartSet } from "../shards/part-set.js";
import { FAULT_KINDS } from "../history/format.js";
import { writeExploreReports, type ExploreReport } from "./reports.js";
import { oracleHead } from "../report/oracle-findings.js";
import { messageOf } from "../../protocol/errors.js";

const violationSchema = z.object({
  invariants: z.array(
    z.object({
      id: z.string(),
      rules: z.array(z.string()),
      title: z.string(),
      verdict: z.literal("fail"),
      violations: z.array(z.object({ message: z.string(), records: z.array(z.number()), rules: z.array(z.string()) })),
    }),
  ),
  steps: z.array(z.string()),
  path: z.string(),
  replayPath: z.string(),
  replay: z.string(),
});

/** A part's explore.json, as `explore --shard K/N` writes it (reports.ts, ExploreReport). */
const partReportSchema = z.object({
  broker: z.string(),
  seed: z.number().int(),
  steps: z.number().int(),
  part: z.strictObject({ index: z.number().int().positive(), count: z.number().int().positive(), runs: z.number().int().positive(), kitVersion: z.string() }),
  result: z.object({
    seed: z.number().int(),
    runs: z.number().int().nonnegative(),
    shrinks: z.number().int().nonnegative(),
    steps: z.number().int().nonnegative(),
    /** Every fault kind, each counted (explore counts them all from 0). */
    faults: z.record(z.enum(FAULT_KINDS), z.number().int().nonnegative()),
    durationMs: z.number().nonnegative(),
    interrupted: z.boolean(),
    /** Per rule, the triggers the part's histories gave the oracles (a part written before the kit counted them has none). */
    exercised: z.record(z.string(), z.number().int().nonnegative()).default({}),
  }),
  violation: violationSchema.optional(),
});

function readPart(dir: string): z.infer<typeof partReportSchema> {
  const file = path.join(dir, "explore.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw configError(`cannot read ${file}: ${messageOf(error)}`);
  }
  const parsed = partReportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why =
      issue?.path[0] === "part"
        ? "it is a whole campaign's, not a part's (explore --shard K/N writes parts)"
        : `at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`;
    throw configError(`${file} is not an explore part's report: ${why}`);
  }
  return parsed.data;
}

/** Words for what the parts of one campaign share, for a refusal naming a foreign part. */
const FIELD = { kitVersion: "kit version", seed: "seed", broker: "broker", steps: "--steps", runs: "--runs" };

/**
 * `merge DIR…` of explore parts: one campaign's report, the runs, steps, shrinking runs and faults
 * per kind summed, every part's violation kept with its replay line (which needs no --shard: it
 * replays alone). Exit 1 when a part found a violation, 0 when none did, 2 when the parts are not
 * one campaign's (missing, twice, or another campaign's).
 */
export function mergeExploreParts(dirs: readonly string[], reports: string, out: (text: string) => void): number {
  const parts = dirs.map((dir) => ({ dir, report: readPart(dir) }));
  // Any part's broker, seed and steps are the campaign's: checkPartSet holds them equal.
  const { report: first } = checkPartSet(
    parts.map(({ dir, report: r }) => ({
      dir,
      index: r.part.index,
      count: r.part.count,
      run: { kitVersion: r.part.kitVersion, seed: r.seed, broker: r.broker, steps: r.steps, runs: r.part.runs },
      report: r,
    })),
    FIELD,
    "part",
  );
  parts.sort((a, b) => a.report.part.index - b.report.part.index);
  const sum = (pick: (r: (typeof parts)[number]["report"]["result"]) => number) => parts.reduce((a, p) => a + pick(p.report.result), 0);
  const faults = { ...first.result.faults };
  for (const kind of FAULT_KINDS) faults[kind] = sum((r) => r.faults[kind]);
  const violations = parts.flatMap((p) => (p.report.violation ? [p.report.violation] : []));
  const merged: ExploreReport = {
    broker: first.broker,
    seed: first.seed,
    steps: first.steps,
    parts: parts.map(({ dir, report: r }) => ({
      part: `${r.part.index}/${r.part.count}`,
      dir,
      runs: r.result.runs,
      steps: r.result.steps,
      durationMs: r.result.durationMs,
      violations: r.violation ? 1 : 0,
    })),
    result: {
      seed: first.seed,
      runs: sum((r) => r.runs),
      shrinks: sum((r) => r.shrinks),
      steps: sum((r) => r.steps),
      faults,
      // The parts ran side by side: the campaign took as long as its longest part.
      durationMs: Math.max(...parts.map((p) => p.report.result.durationMs)),
      interrupted: parts.some((p) => p.report.result.interrupted),
      exercised: sumExercised(parts.map((p) => p.report.result.exercised)),
    },
    violation: violations[0],
    violations,
  };
  // No earlier history may pass for the merged campaign's: each part's folder keeps its own.
  rmSync(path.join(reports, "explore-history.jsonl"), { force: true });
  writeExploreReports(reports, merged, undefined);
  out(
    `lomi-conformance merge: ${parts.length} explore parts of seed ${first.seed}: runs ${merged.result.runs} (+${merged.result.shrinks} shrinking), steps ${merged.result.steps}\n`,
  );
  out(
    `faults injected: ${Object.entries(faults)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}\n`,
  );
  for (const v of violations) out(`VIOLATION of ${v.invariants.map((f) => oracleHead(f.id, f.violations)).join(", ")}\nreplay: ${v.replay}\n`);
  out(
    `${violations.length === 0 ? "NO VIOLATION" : `${violations.length} violation(s)`} — reports in ${path.relative(process.cwd(), reports) || "."}/explore.md\n`,
  );
  return violations.length === 0 ? 0 : 1;
}

/** The parts' counts of each rule's triggers, added up: what the whole campaign exercised. */
function sumExercised(parts: ReadonlyArray<Readonly<Record<string, number>> | undefined>): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const part of parts) for (const [id, n] of Object.entries(part ?? {})) sum[id] = (sum[id] ?? 0) + n;
  return sum;
}
