// What a process broker costs the suite beyond the broker itself, measured in one run: the same
// scenarios in-process, over stdio with one worker, and over stdio with two. Prints the ratios
// (goal: stdio ≤ 3× in-process; --parallel 2 faster than 1) and the scenarios whose stdio run
// costs most over their in-process run. BENCH_TAGS narrows the suite (default: all of it).
import { STDIO_BROKER, timedSuiteRun, type SuiteRun } from "./suite-run.js";

const TAGS = process.env.BENCH_TAGS;

function timedRun(label: string, args: string[]): SuiteRun {
  const run = timedSuiteRun(args, TAGS);
  process.stdout.write(`  ${label.padEnd(26)} ${run.seconds.toFixed(1).padStart(7)} s  (${run.perScenario.size} scenarios, exit ${run.exitCode})\n`);
  return run;
}

process.stdout.write(`process broker vs in-process${TAGS ? `, tags ${TAGS}` : ", whole suite"}\n`);
const inProcess = timedRun("in-process", []);
const stdio = timedRun("stdio, --parallel 1", STDIO_BROKER);
const stdio2 = timedRun("stdio, --parallel 2", [...STDIO_BROKER, "--parallel", "2"]);

const extra = [...stdio.perScenario]
  .map(([name, ms]) => ({ name, ms, extra: ms - (inProcess.perScenario.get(name) ?? 0) }))
  .sort((a, b) => b.extra - a.extra);
const total = extra.reduce((n, e) => n + e.extra, 0);
process.stdout.write(`scenarios costing most over stdio (ms over their in-process run; ${(total / 1000).toFixed(1)} s in all):\n`);
for (const e of extra.slice(0, 20)) process.stdout.write(`  ${String(Math.round(e.extra)).padStart(7)} ms  (${Math.round(e.ms)} ms) ${e.name}\n`);
process.stdout.write(
  `ratios: stdio / in-process ${(stdio.seconds / inProcess.seconds).toFixed(2)}x (goal ≤ 3); ` +
    `stdio --parallel 2 / --parallel 1 ${(stdio2.seconds / stdio.seconds).toFixed(2)}x (goal < 1)\n`,
);
