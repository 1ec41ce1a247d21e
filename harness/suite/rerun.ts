import { configError } from "../harness-error.js";
import { scenarioKey } from "../run/feature-catalogue.js";
import type { Chosen } from "../run/scenario-choice.js";
import { readRunRecord, scenarioVerdictsOf, type Invocation, type RerunOf } from "../report/run-record.js";

export interface Rerun {
  /** The scenarios to run again, by scenarioKey, and the words every report says them in. */
  among: Chosen;
  rerunOf: RerunOf;
  /** The earlier run's seed and broker options: the rerun's own unless the command line names others. */
  seed: number;
  invocation: Invocation | undefined;
}

/** A verdict a rerun takes up again: a failure (expected by the baseline or not), a pass only on a retry, or a run the harness's fault stopped. */
const AGAIN = new Set(["fail", "baselined", "flaky"]);

/**
 * The scenarios of the run in `dir` to run again: those that failed, which includes those whose
 * other rules were not judged because an earlier step failed, and those a harness fault stopped.
 * Undefined when that run failed none; a run that never ran is refused (exit 2).
 */
export function rerunOfReports(dir: string, shownDir: string): Rerun | undefined {
  const run = readRunRecord(dir);
  if (run.verdict === "not-run") throw configError(`--rerun-failed ${shownDir}: that run never ran (${run.headline}); nothing to rerun`);
  const verdicts: ReadonlyArray<{ name: string; uri: string; verdict: string; harnessFault?: boolean }> = run.scenarioVerdicts ?? scenarioVerdictsOf(run);
  const again = verdicts.filter((s) => AGAIN.has(s.verdict) || s.harnessFault === true);
  if (again.length === 0) return undefined;
  const keys = new Set(again.map(scenarioKey));
  return {
    among: { keys, label: `rerun of the ${keys.size} failed scenario(s) of ${shownDir} (seed ${run.seed}, started ${run.startedAt})` },
    rerunOf: { reports: shownDir, startedAt: run.startedAt, headline: run.headline, scenarios: keys.size },
    seed: run.seed,
    invocation: run.invocation,
  };
}
