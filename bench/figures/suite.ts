// The whole conformance suite, in-process and against the reference broker as a process over
// stdio, run alternately so both meet the same machine. Minutes long: `npm run bench -- --suite`.
import { figure, type Figure } from "../report.js";
import { summarize } from "../summary.js";
import { STDIO_BROKER, timedSuiteRun } from "../suite-run.js";
import type { FigureContext } from "./figure-context.js";

export async function suiteFigures(ctx: FigureContext): Promise<Figure[]> {
  const inProcess: number[] = [];
  const stdio: number[] = [];
  const failures: string[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    for (const [label, args, samples] of [["in-process", [], inProcess], ["stdio", STDIO_BROKER, stdio]] as const) {
      ctx.progress(`run ${run + 1}/${ctx.runs}, ${label}`);
      const r = timedSuiteRun([...args]);
      samples.push(r.seconds);
      if (r.exitCode !== 0) failures.push(`${label} run ${run + 1} exited ${r.exitCode}`);
    }
  }
  const note = failures.length ? `not every run was conformant: ${failures.join("; ")}` : undefined;
  const inProcessSummary = summarize(inProcess);
  return [
    figure({ id: "suite-in-process", label: "whole suite, in-process", unit: "s", figure: inProcessSummary, goal: { on: "median", atMost: 15, text: "< 15 s" }, ...(note ? { note } : {}) }),
    figure({
      id: "suite-stdio",
      label: "whole suite, broker over stdio",
      unit: "s",
      figure: summarize(stdio),
      baseline: { label: "whole suite in-process", summary: inProcessSummary },
      goal: { on: "ratio", atMost: 2, text: "≤ 2× in-process" },
    }),
  ];
}
