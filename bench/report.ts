// reports/bench.json: what `npm run bench` measured, where and when, in one validated shape, so the
// table, the README section and a later comparison all read the same file.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { Summary } from "./summary.js";

export const BENCH_JSON = "reports/bench.json";

const summarySchema = z.strictObject({ median: z.number(), min: z.number(), max: z.number(), runs: z.number().int().positive() });

/** How a figure's goal is judged: on the ratio to its baseline, or on its own median. */
export const goalSchema = z.strictObject({
  on: z.enum(["ratio", "median"]),
  atLeast: z.number().optional(),
  atMost: z.number().optional(),
  text: z.string(),
});
export type Goal = z.infer<typeof goalSchema>;

export const figureSchema = z.strictObject({
  id: z.string(),
  label: z.string(),
  unit: z.string(),
  figure: summarySchema,
  baseline: z.strictObject({ label: z.string(), summary: summarySchema }).nullable(),
  /** figure median / baseline median. */
  ratio: z.number().nullable(),
  goal: goalSchema.nullable(),
  met: z.boolean().nullable(),
  note: z.string().optional(),
});
export type Figure = z.infer<typeof figureSchema>;

export const machineSchema = z.strictObject({
  cpu: z.string(),
  cores: z.number().int(),
  node: z.string(),
  platform: z.string(),
  loadAverage: z.array(z.number()),
});

export const benchReportSchema = z.strictObject({
  date: z.iso.datetime(),
  machine: machineSchema,
  quick: z.boolean(),
  figures: z.array(figureSchema),
  skipped: z.array(z.strictObject({ id: z.string(), why: z.string() })),
});
export type BenchReport = z.infer<typeof benchReportSchema>;

export function machine(): z.infer<typeof machineSchema> {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.cpus().length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

export function judge(goal: Goal, median: number, ratio: number | null): boolean | null {
  const value = goal.on === "ratio" ? ratio : median;
  if (value === null) return null;
  return (goal.atLeast === undefined || value >= goal.atLeast) && (goal.atMost === undefined || value <= goal.atMost);
}

/** A figure beside its baseline, with the ratio of their medians and whether the goal is met. */
export function figure(spec: {
  id: string;
  label: string;
  unit: string;
  figure: Summary;
  baseline?: { label: string; summary: Summary };
  goal?: Goal;
  note?: string;
}): Figure {
  const ratio = spec.baseline ? spec.figure.median / spec.baseline.summary.median : null;
  return {
    id: spec.id,
    label: spec.label,
    unit: spec.unit,
    figure: spec.figure,
    baseline: spec.baseline ?? null,
    ratio,
    goal: spec.goal ?? null,
    met: spec.goal ? judge(spec.goal, spec.figure.median, ratio) : null,
    ...(spec.note ? { note: spec.note } : {}),
  };
}

export function writeBenchReport(report: BenchReport, file = BENCH_JSON): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(benchReportSchema.parse(report), null, 2)}\n`);
}

export function readBenchReport(file = BENCH_JSON): BenchReport {
  return benchReportSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}
