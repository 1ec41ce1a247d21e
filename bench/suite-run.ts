// One whole run of lomi-conformance, timed, with each scenario's own duration from its reports.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { readMessages } from "../harness/report/message-stream.js";
import { scenarioResults } from "../harness/report/scenario-results.js";

/** The reference broker as a process over stdio, fault hooks included, as `npm run test:crash` runs it. */
export const STDIO_BROKER = ["--broker-cmd", "node bin/lomi-broker.js", "--broker-faults"];

export interface SuiteRun {
  seconds: number;
  exitCode: number | null;
  /** Milliseconds per scenario, by "uri:line name". */
  perScenario: Map<string, number>;
  /** CPU of the lomi-conformance process itself (ms): the harness, and an in-process broker with it. */
  harnessCpuMs: number;
  /** CPU of the processes it started and reaped (ms): the brokers of a --broker-cmd run. */
  childrenCpuMs: number;
}

const CPU_AT_EXIT = fileURLToPath(new URL("./cpu-at-exit.mjs", import.meta.url));
const cpuFileSchema = z.strictObject({ selfMs: z.number(), childrenMs: z.number() });

const reportsRoot = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-suite-"));
let runs = 0;

/** Runs `lomi-conformance` with `args` (and `--tags` when given), its reports in a directory of its own. */
export function timedSuiteRun(args: string[], tags?: string, env: NodeJS.ProcessEnv = process.env): SuiteRun {
  const reports = path.join(reportsRoot, String(runs++));
  const cpuFile = `${reports}.cpu.json`;
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    ["--import", CPU_AT_EXIT, "bin/lomi-conformance.js", ...(tags ? ["--tags", tags] : []), ...args, "--reports", reports],
    { encoding: "utf8", env: { ...env, LOMI_BENCH_CPU_FILE: cpuFile } },
  );
  const seconds = (Date.now() - started) / 1000;
  const results = scenarioResults(readMessages(path.join(reports, "messages.ndjson")));
  const cpu = cpuFileSchema.parse(JSON.parse(readFileSync(cpuFile, "utf8")));
  return {
    seconds,
    exitCode: r.status,
    perScenario: new Map(results.map((s) => [`${s.uri}:${s.line} ${s.name}`, s.durationMs])),
    harnessCpuMs: cpu.selfMs,
    childrenCpuMs: cpu.childrenMs,
  };
}
