// The CPU of K conformance runs made as K lomi-conformance processes, next to the same K runs made one
// after another on one judging process (harness/run/judges.ts, as teeth and the tests make theirs),
// in the same bench, rounds alternating so a busy machine weighs on both alike. Linux only: the
// CPU is what this process's reaped children spent (/proc/self/stat).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Judges } from "../harness/run/judges.js";
import { kitPath } from "../protocol/kit-root.js";
import { summarize } from "./summary.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** A run as most tests make theirs: a rule's few scenarios, in-process. */
const ARGS = ["--tags", "@IDEM-01 or @IDEM-02"];
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICK_MS = 10;

/** CPU milliseconds this process's reaped children have spent, from its /proc/self/stat (cutime, cstime). */
function childrenCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** CPU milliseconds of `work`'s child processes, once they have all exited. */
async function cpuOf(work: () => Promise<void>): Promise<number> {
  const before = childrenCpuMs();
  await work();
  return childrenCpuMs() - before;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-judges-"));
const reports = (how: string, round: number, k: number) => ["--reports", path.join(scratch, `${how}-${round}-${k}`)];

async function asProcesses(round: number): Promise<void> {
  for (let k = 0; k < RUNS; k++) {
    const child = spawn(process.execPath, [kitPath("bin/lomi-conformance.js"), ...ARGS, ...reports("process", round, k)], { stdio: "ignore" });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`lomi-conformance exited ${code}`);
  }
}

async function onOneJudge(round: number): Promise<void> {
  const judges = new Judges(1);
  try {
    for (let k = 0; k < RUNS; k++) {
      const { code, output } = await judges.run([...ARGS, ...reports("judge", round, k)]);
      if (code !== 0) throw new Error(`a judged run exited ${code}: ${output.slice(-500)}`);
    }
  } finally {
    await judges.close();
  }
}

const processes: number[] = [];
const judged: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  processes.push(await cpuOf(() => asProcesses(round)));
  judged.push(await cpuOf(() => onOneJudge(round)));
}
const p = summarize(processes);
const j = summarize(judged);
process.stdout.write(`${RUNS} in-process runs (${ARGS.join(" ")}), CPU over ${ROUNDS} rounds (median, min-max):\n`);
process.stdout.write(`  a process each            ${(p.median / 1000).toFixed(1)} s (${(p.min / 1000).toFixed(1)}-${(p.max / 1000).toFixed(1)})\n`);
process.stdout.write(`  one judging process       ${(j.median / 1000).toFixed(1)} s (${(j.min / 1000).toFixed(1)}-${(j.max / 1000).toFixed(1)})\n`);
process.stdout.write(`ratio judging process / processes: ${(j.median / p.median).toFixed(2)}\n`);
