// One whole run of lomi-conformance, timed, with each scenario's own duration from its reports.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readScenarioResults } from "../harness/report/scenario-results.js";

/** The reference broker as a process over stdio, fault hooks included, as `npm run test:crash` runs it. */
export const STDIO_BROKER = ["--broker-cmd", "node bin/lomi-broker.js", "--broker-faults"];

export interface SuiteRun {
  seconds: number;
  exitCode: number | null;
  /** Milliseconds per scenario, by "uri:line name". */
  perScenario: Map<string, number>;
}

const reportsRoot = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-suite-"));
let runs = 0;

/** Runs `lomi-conformance` with `args` (and `--tags` when given), its reports in a directory of its own. */
export function timedSuiteRun(args: string[], tags?: string, env: NodeJS.ProcessEnv = process.env): SuiteRun {
  const reports = path.join(reportsRoot, String(runs++));
  const started = Date.now();
  const r = spawnSync(process.execPath, ["bin/lomi-conformance.js", ...(tags ? ["--tags", tags] : []), ...args, "--reports", reports], { encoding: "utf8", env });
  const seconds = (Date.now() - started) / 1000;
  const results = readScenarioResults(path.join(reports, "messages.ndjson"));
  return { seconds, exitCode: r.status, perScenario: new Map(results.map((s) => [`${s.uri}:${s.line} ${s.name}`, s.durationMs])) };
}
