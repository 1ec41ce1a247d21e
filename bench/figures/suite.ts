// The whole conformance suite, in-process and against the reference broker as a process over
// stdio, run alternately so both meet the same machine. Minutes long: `npm run bench -- --suite`.
import { figure, type Figure } from "../report.js";
import { summarize } from "../summary.js";
import { STDIO_BROKER, timedSuiteRun } from "../suite-run.js";
import type { FigureContext } from "./figure-context.js";

export async function suiteFigures(ctx: FigureContext): Promise<Figure[]> {
  const inProcess: number[] = [];
  const stdio: number[] = [];
  // Harness CPU per scenario (ms): over stdio the lomi-conformance process alone, its brokers left out.
  const inProcessCpu: number[] = [];
  const stdioCpu: number[] = [];
  const failures: string[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    for (const [label, args, samples, cpu] of [
      ["in-process", [], inProcess, inProcessCpu],
      ["stdio", STDIO_BROKER, stdio, stdioCpu],
    ] as const) {
      ctx.progress(`run ${run + 1}/${ctx.runs}, ${label}`);
      const r = timedSuiteRun([...args]);
      samples.push(r.seconds);
      cpu.push(r.harnessCpuMs / Math.max(1, r.perScenario.size));
      if (r.exitCode !== 0) failures.push(`${label} run ${run + 1} exited ${r.exitCode}`);
    }
  }
  const note = failures.length ? `not every run was conformant: ${failures.join("; ")}` : undefined;
  const inProcessSummary = summarize(inProcess);
  return [
    figure({
      id: "suite-in-process",
      label: "whole suite, in-process",
      unit: "s",
      figure: inProcessSummary,
      goal: { on: "median", atMost: 15, text: "< 15 s" },
      ...(note ? { note } : {}),
    }),
    figure({
      id: "suite-stdio",
      label: "whole suite, broker over stdio",
      unit: "s",
      figure: summarize(stdio),
      baseline: { label: "whole suite in-process", summary: inProcessSummary },
      goal: { on: "ratio", atMost: 2, text: "≤ 2× in-process" },
    }),
    figure({
      id: "suite-harness-cpu-stdio",
      label: "harness CPU per scenario over stdio (brokers left out)",
      unit: "ms",
      figure: summarize(stdioCpu),
      // In-process the broker runs in the harness's process: its CPU cannot be told apart there, so this ratio is a floor.
      baseline: { label: "in-process, the broker's CPU included", summary: summarize(inProcessCpu) },
      ...(note ? { note } : {}),
    }),
  ];
}
