// What a process broker costs the suite beyond the broker itself, measured in one run: the same
// scenarios in-process, over stdio with one worker, and over stdio with two. Prints the ratios
// (goal: stdio ≤ 3× in-process; --parallel 2 faster than 1) and the scenarios whose stdio run
// costs most over their in-process run. Where NODE_EXTRA_CA_CERTS is set, which every node process
// pays for at start, a fourth run over stdio without it shows what that costs. BENCH_TAGS narrows
// the suite (default: all of it).
import { spawnSync } from "node:child_process";
import { STDIO_BROKER, timedSuiteRun, type SuiteRun } from "./suite-run.js";
import { summarize } from "./summary.js";

const TAGS = process.env.BENCH_TAGS;
/** Node 20 reads this file at the start of every process: a tax on each broker start, not the kit's. */
const EXTRA_CA = "NODE_EXTRA_CA_CERTS";
const { [EXTRA_CA]: extraCa, ...withoutExtraCa } = process.env;

function timedRun(label: string, args: string[], env?: NodeJS.ProcessEnv): SuiteRun {
  const run = timedSuiteRun(args, TAGS, env);
  process.stdout.write(`  ${label.padEnd(40)} ${run.seconds.toFixed(1).padStart(7)} s  (${run.perScenario.size} scenarios, exit ${run.exitCode})\n`);
  return run;
}

process.stdout.write(`process broker vs in-process${TAGS ? `, tags ${TAGS}` : ", whole suite"}\n`);
const inProcess = timedRun("in-process", []);
const stdio = timedRun("stdio, --parallel 1", STDIO_BROKER);
const stdio2 = timedRun("stdio, --parallel 2", [...STDIO_BROKER, "--parallel", "2"]);
/** Median milliseconds of a bare `node -e ""` in `env`. */
const bareNode = (env: NodeJS.ProcessEnv) =>
  summarize(
    Array.from({ length: 9 }, () => {
      const started = process.hrtime.bigint();
      spawnSync(process.execPath, ["-e", ""], { env });
      return Number(process.hrtime.bigint() - started) / 1e6;
    }),
  ).median;
// Where the variable is set, the same stdio run without it: the ratio a broker that drops it gets.
const stdioWithoutCa = extraCa === undefined ? undefined : timedRun(`stdio, --parallel 1, no ${EXTRA_CA}`, STDIO_BROKER, withoutExtraCa);
if (extraCa !== undefined) {
  process.stdout.write(`${EXTRA_CA} is set (${extraCa}): a bare node starts in ${bareNode(process.env).toFixed(0)} ms with it, ${bareNode(withoutExtraCa).toFixed(0)} ms without; every broker the stdio runs start inherits it\n`);
}

const extra = [...stdio.perScenario]
  .map(([name, ms]) => ({ name, ms, extra: ms - (inProcess.perScenario.get(name) ?? 0) }))
  .sort((a, b) => b.extra - a.extra);
const total = extra.reduce((n, e) => n + e.extra, 0);
process.stdout.write(`scenarios costing most over stdio (ms over their in-process run; ${(total / 1000).toFixed(1)} s in all):\n`);
for (const e of extra.slice(0, 20)) process.stdout.write(`  ${String(Math.round(e.extra)).padStart(7)} ms  (${Math.round(e.ms)} ms) ${e.name}\n`);
process.stdout.write(
  `ratios: stdio / in-process ${(stdio.seconds / inProcess.seconds).toFixed(2)}x (goal ≤ 3); ` +
    `stdio --parallel 2 / --parallel 1 ${(stdio2.seconds / stdio.seconds).toFixed(2)}x (goal < 1)` +
    (stdioWithoutCa ? `; stdio without ${EXTRA_CA} / in-process ${(stdioWithoutCa.seconds / inProcess.seconds).toFixed(2)}x` : "") +
    "\n",
);
