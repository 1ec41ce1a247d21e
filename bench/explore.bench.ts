// Explore's throughput: runs a minute and steps a second, with the reference broker in-process and as
// a process (stdio, a SIGKILL and a new process at every crash and every switch of agent). The ratio
// of the two, measured in the same run, is the number to compare across machines.
import { explore } from "../harness/explore/explore.js";
import type { RunParameters } from "../harness/run/run-parameters.js";
import { readWorldFile } from "../simulator/world-file.js";
import { KIT_ROOT } from "../protocol/kit-root.js";

const RUNS = Number(process.env.BENCH_EXPLORE_RUNS ?? 20);
const STEPS = Number(process.env.BENCH_EXPLORE_STEPS ?? 60);

async function measure(label: string, run: RunParameters, runs: number) {
  const r = await explore({ seed: 1, runs, steps: STEPS, timeBudgetS: 3600, run, world: readWorldFile() });
  if (r.violation) throw new Error(`${label}: explore found a violation: ${JSON.stringify(r.violation.invariants)}\n${r.violation.steps.join("\n")}`);
  const perMinute = (r.runs / r.durationMs) * 60_000;
  const perSecond = (r.steps / r.durationMs) * 1000;
  process.stdout.write(
    `  ${label.padEnd(30)} ${r.runs} runs, ${r.steps} steps in ${(r.durationMs / 1000).toFixed(1)} s: ${perMinute.toFixed(1)} runs/min, ${perSecond.toFixed(1)} steps/s\n`,
  );
  return perSecond;
}

process.stdout.write(`explore, seed 1, at most ${STEPS} steps a run\n`);
const inProcess = await measure("in-process", { adapter: "in-process", seed: 1, timeoutMs: 10_000 }, RUNS);
const child = await measure(
  "process (stdio)",
  { adapter: "command", brokerCommand: "node bin/lomi-broker.js", brokerCwd: KIT_ROOT, brokerFaults: false, seed: 1, timeoutMs: 10_000 },
  Math.max(1, Math.round(RUNS / 4)),
);
process.stdout.write(`ratio: a process broker explores at ${(child / inProcess).toFixed(3)}x the in-process speed (steps/s)\n`);
