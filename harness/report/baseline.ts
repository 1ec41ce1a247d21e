import { readFileSync } from "node:fs";
import { z } from "zod";
import { configError } from "../harness-error.js";
import type { ScenarioResult } from "./scenario-results.js";

/**
 * A baseline: the failures a team expects today, so it can adopt the suite gradually. A baselined
 * failure does not fail the gate; a baselined entry that now passes does (it is stale: delete it),
 * so the list only shrinks. Entries name a rule ID or a scenario by its exact name.
 */
export const baselineFileSchema = z.strictObject({
  expectedFailures: z.array(
    z.union([
      z.strictObject({ rule: z.string().regex(/^[A-Z]+-\d{2}$/), reason: z.string().min(1) }),
      z.strictObject({ scenario: z.string().min(1), reason: z.string().min(1) }),
    ]),
  ),
});

export interface Baseline {
  file: string | undefined;
  /** Rule ID → why it is expected to fail. */
  rules: ReadonlyMap<string, string>;
  /** Scenario name → why it is expected to fail. */
  scenarios: ReadonlyMap<string, string>;
}

export const NO_BASELINE: Baseline = { file: undefined, rules: new Map(), scenarios: new Map() };

/** Reads a baseline; an entry naming no known rule or scenario is a configuration error (a typo would hide nothing). */
export function loadBaseline(file: string, knownRules: ReadonlySet<string>, knownScenarios: ReadonlySet<string>): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw configError(`cannot read the baseline ${file}: ${(error as Error).message}`);
  }
  const parsed = baselineFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(`the baseline ${file} is not valid at ${issue?.path.join(".") || "(root)"}: ${issue?.message}. Expected {"expectedFailures": [{"rule": "IDEM-02", "reason": "..."}, {"scenario": "exact scenario name", "reason": "..."}]}`);
  }
  const rules = new Map<string, string>();
  const scenarios = new Map<string, string>();
  for (const entry of parsed.data.expectedFailures) {
    if ("rule" in entry) {
      if (!knownRules.has(entry.rule)) throw configError(`the baseline ${file} names the rule ${entry.rule}, which docs/rules.json does not have`);
      rules.set(entry.rule, entry.reason);
    } else {
      if (!knownScenarios.has(entry.scenario)) throw configError(`the baseline ${file} names the scenario "${entry.scenario}", which no feature file has`);
      scenarios.set(entry.scenario, entry.reason);
    }
  }
  return { file, rules, scenarios };
}

export interface BaselineEntryReport {
  kind: "rule" | "scenario";
  name: string;
  reason: string;
  /** expected-failure: it failed, as the baseline says; stale: it passes now (fails the gate); not-run: this run did not judge it. */
  status: "expected-failure" | "stale" | "not-run";
}

/** Whether a failed scenario was expected to fail by name. */
export function baselinedScenario(baseline: Baseline, s: ScenarioResult): string | undefined {
  return s.verdict === "fail" ? baseline.scenarios.get(s.name) : undefined;
}

/** The status of each scenario entry; rule entries are judged with the rules (rule-verdicts.ts). */
export function scenarioEntries(baseline: Baseline, results: ScenarioResult[]): BaselineEntryReport[] {
  return [...baseline.scenarios].map(([name, reason]) => {
    const runs = results.filter((r) => r.name === name && r.verdict !== "not-applicable");
    const status = runs.length === 0 ? "not-run" : runs.some((r) => r.verdict === "fail") ? "expected-failure" : "stale";
    return { kind: "scenario", name, reason, status };
  });
}

/** The reason --write-baseline gives each entry, for the team to replace with its own. */
export const PLACEHOLDER_REASON = "TODO: say why this fails today and when it will not";

/**
 * The baseline that makes this run's failures expected (--write-baseline): one entry per failing
 * rule, keeping the reason of an entry the run's baseline already had.
 */
export function baselineFileFor(rules: ReadonlyArray<{ id: string; verdict: string; baseline?: { reason: string } }>): string {
  const expectedFailures = rules
    .filter((r) => r.verdict === "fail" || r.verdict === "baselined")
    .map((r) => ({ rule: r.id, reason: r.baseline?.reason ?? PLACEHOLDER_REASON }));
  return `${JSON.stringify(baselineFileSchema.parse({ expectedFailures }), null, 2)}\n`;
}
