// What a process broker costs the suite beyond the broker itself: the same scenarios in-process,
// over stdio with one worker, and over stdio with two. Prints the ratios (goal: stdio ≤ 2× in-process;
// --parallel 2 faster than 1) and the scenarios whose stdio run costs most over their in-process run.
// This machine's speed drifts by a fifth over minutes: BENCH_ROUNDS=N measures N rounds of the three
// runs (every other round in reverse order), each ratio within its round, and reports the median;
// each run says how much CPU time the host took from the machine meanwhile (steal). Where
// NODE_EXTRA_CA_CERTS is set (every node process pays for it at start) the bench says what a start
// costs with and without it, and BENCH_WITHOUT_EXTRA_CA=1 adds a stdio run without it to each round.
// BENCH_TAGS narrows the suite.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { STDIO_BROKER, timedSuiteRun, type SuiteRun } from "./suite-run.js";
import { summarize } from "./summary.js";

const TAGS = process.env.BENCH_TAGS;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Node 20 reads this file at the start of every process: a tax on each broker start, not the kit's. */
const EXTRA_CA = "NODE_EXTRA_CA_CERTS";
const { [EXTRA_CA]: extraCa, ...withoutExtraCa } = process.env;
const runWithoutCa = extraCa !== undefined && process.env.BENCH_WITHOUT_EXTRA_CA === "1";

/** CPU time the hypervisor gave to others (steal) and all CPU time so far, in ticks; undefined off Linux. */
function cpuTicks(): { steal: number; total: number } | undefined {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { steal: fields[7] ?? 0, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

function timedRun(label: string, args: string[], env?: NodeJS.ProcessEnv): SuiteRun {
  const before = cpuTicks();
  const run = timedSuiteRun(args, TAGS, env);
  const after = cpuTicks();
  // Time the host took from this machine during the run: a run with more of it is slower for it.
  const steal =
    before && after && after.total > before.total ? `, host steal ${((100 * (after.steal - before.steal)) / (after.total - before.total)).toFixed(1)} %` : "";
  process.stdout.write(`  ${label.padEnd(40)} ${run.seconds.toFixed(1).padStart(7)} s  (${run.perScenario.size} scenarios, exit ${run.exitCode}${steal})\n`);
  return run;
}

/** Median milliseconds of a bare `node -e ""` in `env`. */
const bareNode = (env: NodeJS.ProcessEnv) =>
  summarize(
    Array.from({ length: 9 }, () => {
      const started = process.hrtime.bigint();
      spawnSync(process.execPath, ["-e", ""], { env });
      return Number(process.hrtime.bigint() - started) / 1e6;
    }),
  ).median;

interface Round {
  inProcess: SuiteRun;
  stdio: SuiteRun;
  ratio: number;
  parallel: number;
  withoutCa: number | undefined;
}

process.stdout.write(`process broker vs in-process${TAGS ? `, tags ${TAGS}` : ", whole suite"}, ${ROUNDS} round(s)\n`);
if (extraCa !== undefined) {
  process.stdout.write(
    `${EXTRA_CA} is set (${extraCa}): a bare node starts in ${bareNode(process.env).toFixed(0)} ms with it, ${bareNode(withoutExtraCa).toFixed(0)} ms without; every broker the stdio runs start inherits it\n`,
  );
}
const rounds: Round[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  if (ROUNDS > 1) process.stdout.write(`round ${r}\n`);
  // Every other round runs in the opposite order, so a drift of the host's speed favours no run.
  const order = ["in-process", "stdio 1", "stdio 2", ...(runWithoutCa ? ["no ca"] : [])];
  const runs = new Map<string, SuiteRun>();
  for (const which of r % 2 === 1 ? order : order.reverse()) {
    if (which === "in-process") runs.set(which, timedRun("in-process", []));
    if (which === "stdio 1") runs.set(which, timedRun("stdio, --parallel 1", STDIO_BROKER));
    if (which === "stdio 2") runs.set(which, timedRun("stdio, --parallel 2", [...STDIO_BROKER, "--parallel", "2"]));
    if (which === "no ca") runs.set(which, timedRun(`stdio, --parallel 1, no ${EXTRA_CA}`, STDIO_BROKER, withoutExtraCa));
  }
  const inProcess = runs.get("in-process")!;
  const stdio = runs.get("stdio 1")!;
  const stdio2 = runs.get("stdio 2")!;
  const withoutCa = runs.get("no ca");
  const round = {
    inProcess,
    stdio,
    ratio: stdio.seconds / inProcess.seconds,
    parallel: stdio2.seconds / stdio.seconds,
    withoutCa: withoutCa && withoutCa.seconds / inProcess.seconds,
  };
  rounds.push(round);
  process.stdout.write(
    `  ratios: stdio / in-process ${round.ratio.toFixed(2)}x; --parallel 2 / --parallel 1 ${round.parallel.toFixed(2)}x` +
      (round.withoutCa === undefined ? "" : `; stdio without ${EXTRA_CA} / in-process ${round.withoutCa.toFixed(2)}x`) +
      "\n",
  );
}

// The per-scenario profile of the round whose ratio is the median one.
const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor((rounds.length - 1) / 2)]!;
const extra = [...median.stdio.perScenario]
  .map(([name, ms]) => ({ name, ms, extra: ms - (median.inProcess.perScenario.get(name) ?? 0) }))
  .sort((a, b) => b.extra - a.extra);
const total = extra.reduce((n, e) => n + e.extra, 0);
process.stdout.write(
  `scenarios costing most over stdio (ms over their in-process run; ${(total / 1000).toFixed(1)} s in all${ROUNDS > 1 ? ", median round" : ""}):\n`,
);
for (const e of extra.slice(0, 20)) process.stdout.write(`  ${String(Math.round(e.extra)).padStart(7)} ms  (${Math.round(e.ms)} ms) ${e.name}\n`);
const med = (values: number[]) => summarize(values).median.toFixed(2);
const withoutCa = rounds.flatMap((r) => (r.withoutCa === undefined ? [] : [r.withoutCa]));
process.stdout.write(
  `${ROUNDS > 1 ? `median of ${ROUNDS} rounds: ` : ""}stdio / in-process ${med(rounds.map((r) => r.ratio))}x (goal ≤ 3); ` +
    `stdio --parallel 2 / --parallel 1 ${med(rounds.map((r) => r.parallel))}x (goal < 1)` +
    (withoutCa.length > 0 ? `; stdio without ${EXTRA_CA} / in-process ${med(withoutCa)}x` : "") +
    "\n",
);
