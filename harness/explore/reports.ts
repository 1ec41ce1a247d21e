import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { configError } from "../harness-error.js";
import { ORACLES } from "../oracles/index.js";
import type { ExploreResult, FailedOracle } from "./explore.js";
import type { RunParameters } from "../run/run-parameters.js";
import { eachOnce, pointerLines } from "../report/oracle-findings.js";

export const EXPLORE_REPORT_FILES = ["explore.json", "explore.md", "explore-history.jsonl"] as const;

/** A found case, replayable: what `npm test` replays from fixtures/explore-seeds.json. */
export const regressionEntry = z
  .strictObject({
    seed: z.number().int(),
    steps: z.number().int().positive(),
    path: z.string(),
    replayPath: z.string(),
    /** The in-process mutant it was found against; absent for the broker under test itself. */
    mutant: z.string().optional(),
    /** The in-process legal variant (variants/) it was found on; absent for the broker under test itself. */
    variant: z.string().optional(),
    invariants: z.array(z.string()).min(1),
  })
  .refine((c) => c.mutant === undefined || c.variant === undefined, { error: "a case names one broker: a mutant or a variant, not both" });
export type RegressionEntry = z.infer<typeof regressionEntry>;

/** A case found on the broker a run names: its in-process mutant or variant is the case's, in the list's key order. */
export function regressionOf(run: RunParameters, found: Omit<RegressionEntry, "mutant" | "variant">): RegressionEntry {
  const { invariants, ...where } = found;
  const { mutant, variant } = run.adapter === "in-process" ? run : { mutant: undefined, variant: undefined };
  return { ...where, ...(mutant !== undefined ? { mutant } : {}), ...(variant !== undefined ? { variant } : {}), invariants };
}
export const regressionList = z.array(regressionEntry);

export function readRegressions(file: string): RegressionEntry[] {
  if (!existsSync(file)) return [];
  const parsed = regressionList.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw configError(`${file} is not a list of explore cases (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

/** Adds a found case to a regression list, once. */
export function addRegression(file: string, entry: RegressionEntry): void {
  const list = readRegressions(file);
  if (list.some((e) => e.seed === entry.seed && e.path === entry.path && e.mutant === entry.mutant && e.variant === entry.variant)) return;
  writeFileSync(file, `${JSON.stringify([...list, entry], null, 2)}\n`);
}

export type ReportedViolation = Omit<NonNullable<ExploreResult["violation"]>, "history"> & { replay: string };

export interface ExploreReport {
  broker: string;
  seed: number;
  steps: number;
  /** A part of a campaign (explore --shard K/N), with the runs asked of each part and the kit that ran it. */
  part?: { index: number; count: number; runs: number; kitVersion: string };
  /** A merged campaign: each part's folder, runs and time. */
  parts?: Array<{ part: string; dir: string; runs: number; steps: number; durationMs: number; violations: number }>;
  result: Omit<ExploreResult, "violation">;
  /** The violation found (a merged campaign's first part's with one). */
  violation: ReportedViolation | undefined;
  /** A merged campaign's violations, every part's, each with its replay line. */
  violations?: ReportedViolation[];
  /** The case `--replay` named, and whether it showed a violation here: one that showed none did not reproduce its finding. */
  replay?: { path: string; replayPath: string; reproduced: boolean };
}

/**
 * What a replay that showed no violation means. Not "no violation" as a campaign says it: fast-check
 * runs some case for a path of another seed, --steps or kit version, so the finding the line came from
 * may still be there.
 */
export function notReproducedText(replay: { path: string; replayPath: string }): string {
  return (
    `NOT REPRODUCED: the replayed case (--replay ${replay.path} --replay-path ${replay.replayPath}) showed no violation here, so the finding it came from is not reproduced. ` +
    `That does not say it is fixed: a replay line runs its case only with its own --seed, --steps and broker, on the kit version that printed it, and another case elsewhere.`
  );
}

/** Each finding headed by the rules it breaks (its oracle's wider list is what the oracle can judge, not what broke), then where docs/ say how to satisfy them. */
const violationLines = (invariants: readonly FailedOracle[]) => [
  ...invariants.flatMap((f) =>
    f.violations.map(
      (v) => `- ${eachOnce(v.rules).join(", ")} (**${f.id}**): ${v.message}${v.records.length ? ` — history records ${v.records.join(", ")}` : ""}`,
    ),
  ),
  ...pointerLines(invariants.flatMap((f) => f.violations)).map((l) => `- ${l}`),
];

/** The rules the oracles judge, split by whether a campaign's histories exercised them (a rule never exercised never passes). */
export function exercisedRules(exercised: Readonly<Record<string, number>> | undefined): { exercised: string[]; idle: string[] } {
  const judgeable = [...new Set(ORACLES.flatMap((o) => o.rules))];
  const times = (id: string) => exercised?.[id] ?? 0;
  return { exercised: judgeable.filter((id) => times(id) > 0), idle: judgeable.filter((id) => times(id) === 0) };
}

/** Which rules the campaign's histories gave the oracles something to judge, and how often; the others were not exercised (never a pass). */
function exercisedLines(exercised: Readonly<Record<string, number>> | undefined): string[] {
  if (exercised === undefined) return [];
  const split = exercisedRules(exercised);
  return [
    `Rules exercised (their situation arose, judged N times over every run): ${split.exercised.map((id) => `${id} ×${exercised[id]}`).join(", ") || "none"}  `,
    `Not exercised (never a pass): ${split.idle.join(", ") || "none"}`,
    ``,
  ];
}

/** reports/explore.json, a readable reports/explore.md, and the shrunk case's history when there is one. */
export function writeExploreReports(dir: string, report: ExploreReport, history: string | undefined): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "explore.json"), `${JSON.stringify(report, null, 2)}\n`);
  if (history !== undefined) writeFileSync(path.join(dir, "explore-history.jsonl"), history);
  const r = report.result;
  const lines = [
    `# lomi-conformance explore${report.part ? ` (part ${report.part.index}/${report.part.count})` : report.parts ? ` (${report.parts.length} parts merged)` : ""}`,
    ``,
    `Broker: ${report.broker}  `,
    `Seed: ${report.seed}, at most ${report.steps} steps a run  `,
    ...(report.replay ? [`Replayed case: \`--replay ${report.replay.path} --replay-path ${report.replay.replayPath}\`  `] : []),
    ...(report.parts
      ? report.parts.map(
          (p) => `Part ${p.part} (${p.dir}): ${p.runs} runs, ${p.steps} steps, ${(p.durationMs / 1000).toFixed(1)} s, ${p.violations} violation(s)  `,
        )
      : []),
    `Runs: ${r.runs} (${r.shrinks} shrinking runs), steps: ${r.steps}, ${(r.durationMs / 1000).toFixed(1)} s${r.interrupted ? " (time budget reached)" : ""}`,
    ``,
    `| fault | injected |`,
    `|---|---|`,
    ...Object.entries(r.faults).map(([kind, n]) => `| ${kind} | ${n} |`),
    ``,
    ...exercisedLines(r.exercised),
  ];
  const violations = report.violations ?? (report.violation ? [report.violation] : []);
  if (violations.length === 0) lines.push(report.replay ? notReproducedText(report.replay) : `**No violation** in ${r.runs} runs.`);
  for (const v of violations) {
    lines.push(
      `## Violation`,
      ``,
      ...violationLines(v.invariants),
      ``,
      `### Shrunk sequence (${v.steps.length} steps)`,
      ``,
      ...v.steps.map((s, i) => `${i + 1}. ${s}`),
      ``,
    );
    lines.push(`### Replay`, ``, "```", v.replay, "```", ``);
  }
  if (violations.length > 0)
    lines.push(
      report.parts
        ? `Each part's folder holds the history of its violation (explore-history.jsonl).`
        : `The history of this run is in explore-history.jsonl; \`lomi-conformance check explore-history.jsonl\` judges it again.`,
    );
  writeFileSync(path.join(dir, "explore.md"), `${lines.join("\n")}\n`);
}
