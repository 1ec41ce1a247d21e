import { NO_BASELINE } from "../../harness/report/baseline.js";
import { judgeRun, type RunInputs } from "../../harness/report/judge-run.js";
import { profileOf } from "../../harness/run/profiles.js";

/**
 * A made-up run's inputs: a whole run at the MUST level, with no baseline, of an in-process broker,
 * started at the epoch; a test gives its rules, results and suite, and what it is about.
 */
export const madeUpRunInputs = (inputs: Pick<RunInputs, "rules" | "results" | "suite"> & Partial<RunInputs>): RunInputs => ({
  tags: undefined,
  baseline: NO_BASELINE,
  baselineFile: undefined,
  level: "must",
  requireAll: false,
  profile: profileOf({ adapter: "in-process", seed: 1, timeoutMs: 10 }),
  broker: { adapter: "reference", serverInfo: undefined },
  seed: 1,
  startedAt: new Date(0).toISOString(),
  durationMs: 0,
  ...inputs,
});

/** judgeRun on a made-up run (madeUpRunInputs). */
export const judgeMadeUpRun = (inputs: Pick<RunInputs, "rules" | "results" | "suite"> & Partial<RunInputs>) => judgeRun(madeUpRunInputs(inputs));
