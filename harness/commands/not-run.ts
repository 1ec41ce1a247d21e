import type { Level } from "../report/rule-verdicts.js";
import { commandLine } from "./options.js";

/**
 * Reports that say the run never judged anything, and why (a bad option, a --tags that selects
 * nothing, a failed preflight, a harness error before any verdict): every report is there, so a CI
 * gate that publishes them shows the cause. Earlier reports are removed first: none may pass for this run.
 */
export async function writeNotRun(
  reports: string,
  cause: string,
  run: { broker: string; seed: number; level: Level; tags: string | undefined; startedAt: string; requireAll: boolean },
): Promise<void> {
  const { clearReports } = await import("../suite/run-suite.js");
  const { notRunSummary } = await import("../report/run-summary.js");
  const { writeReports } = await import("../report/write-reports.js");
  clearReports(reports);
  writeReports(
    reports,
    notRunSummary(
      cause,
      {
        broker: { adapter: run.broker, serverInfo: undefined },
        seed: run.seed,
        level: run.level,
        tags: run.tags,
        startedAt: run.startedAt,
        requireAll: run.requireAll,
        command: commandLine(),
      },
      run.broker,
    ),
    [],
    () => undefined,
  );
}
