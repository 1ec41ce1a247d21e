import { NO_BASELINE } from "../../harness/report/baseline.js";
import { judgeRun, type RunInputs } from "../../harness/report/judge-run.js";
import { profileOf } from "../../harness/run/profiles.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import type { Rule } from "../../harness/rules.js";

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

/** A rule of a made-up run: its ID for a title, at MUST unless said. */
export const madeUpRule = (id: string, level: Rule["level"] = "MUST"): Rule => ({ id, level, title: id, source: "s" });

/** A scenario's result in a made-up run: a failed one failed its step with "boom"; `more` says anything else. */
export const madeUpScenario = (name: string, tags: string[], verdict: ScenarioResult["verdict"], more: Partial<ScenarioResult> = {}): ScenarioResult => ({
  name,
  uri: "features/x.feature",
  line: 1,
  tags,
  verdict,
  status: verdict === "fail" ? "FAILED" : "PASSED",
  reason: verdict === "fail" ? "boom" : undefined,
  durationMs: 1,
  ...more,
});
