import { baselineFileSchema, PLACEHOLDER_REASON, type Baseline, type BaselineEntries, type BaselineEntryReport } from "./baseline.js";
import type { ScenarioResult } from "./scenario-results.js";

export interface BaselineUpdate {
  /** The file's new text. */
  text: string;
  /** The entries dropped (stale: every scenario they cover ran and passed), as "rule A-01" or `scenario "…"`. */
  dropped: string[];
  /** The failures added, each with the placeholder reason to replace. */
  added: string[];
  /** How many entries stand as they were (still failing, or not all their scenarios ran). */
  kept: number;
}

const named = (e: { kind: string; name: string }) => (e.kind === "scenario" ? `scenario "${e.name}"` : `rule ${e.name}`);

/**
 * --update-baseline: the run's baseline kept up. A stale entry goes; every other entry stays with
 * its reason (one this run did not reach, or only partly, included: a partial run must not drop what
 * the next whole run needs); each failure no entry expects is added with a placeholder reason, by
 * scenario or by rule as --baseline-entries says.
 */
export function updatedBaseline(
  baseline: Baseline,
  entries: readonly BaselineEntryReport[],
  rules: ReadonlyArray<{ id: string; verdict: string }>,
  results: readonly ScenarioResult[],
  expected: (s: ScenarioResult) => string | undefined,
  by: BaselineEntries,
): BaselineUpdate {
  const stale = entries.filter((e) => e.status === "stale");
  const isStale = (kind: string, name: string) => stale.some((e) => e.kind === kind && e.name === name);
  // Kept whole: the reason, and what the entry pins, links or owns.
  const keptRules = [...baseline.rules].filter(([id]) => !isStale("rule", id)).map(([rule, entry]) => ({ rule, ...entry }));
  const keptScenarios = [...baseline.scenarios].filter(([name]) => !isStale("scenario", name)).map(([scenario, entry]) => ({ scenario, ...entry }));
  const added =
    by === "rule"
      ? rules.filter((r) => r.verdict === "fail").map((r) => ({ rule: r.id, reason: PLACEHOLDER_REASON }))
      : [...new Set(results.filter((r) => r.verdict === "fail" && expected(r) === undefined).map((r) => r.name))].map((scenario) => ({
          scenario,
          reason: PLACEHOLDER_REASON,
        }));
  const expectedFailures = [...keptRules, ...keptScenarios, ...added];
  return {
    text: `${JSON.stringify(baselineFileSchema.parse({ expectedFailures }), null, 2)}\n`,
    dropped: stale.map(named),
    added: added.map((a) => ("rule" in a ? named({ kind: "rule", name: a.rule }) : named({ kind: "scenario", name: a.scenario }))),
    kept: keptRules.length + keptScenarios.length,
  };
}
