import { readFileSync } from "node:fs";
import { z } from "zod";
import { configError } from "../harness-error.js";
import type { ScenarioResult } from "./scenario-results.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

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
    const missing = systemCodeOf(error) === "ENOENT";
    throw configError(`cannot read the baseline ${file}: ${missing ? "no such file; write one with --write-baseline FILE (docs/implementers.md, \"Adopting the suite gradually\")" : messageOf(error)}`);
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
  /**
   * expected-failure: it failed, as the baseline says; stale: every scenario it covers ran and
   * passed (fails the gate); partly-run: those of its scenarios that ran passed, not all ran (a
   * --tags run), so it stands; not-run: this run did not judge it.
   */
  status: "expected-failure" | "stale" | "partly-run" | "not-run";
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

/** A reason that is still a placeholder: the one --write-baseline writes, or one that only says TODO/FIXME/TBD. */
export const isPlaceholder = (reason: string) => reason === PLACEHOLDER_REASON || /^\s*(TODO|FIXME|TBD|XXX)\b/i.test(reason) || reason.trim().length < 3;

/** The warnings a baseline earns without failing the run: every entry whose reason is still a placeholder. */
export function baselineWarnings(baseline: Baseline): string[] {
  const entries = [...[...baseline.rules].map(([name, reason]) => ({ kind: "rule", name, reason })), ...[...baseline.scenarios].map(([name, reason]) => ({ kind: "scenario", name, reason }))];
  return entries.filter((e) => isPlaceholder(e.reason)).map((e) => `the baseline entry for ${e.kind} ${e.kind === "scenario" ? `"${e.name}"` : e.name} has no reason yet ("${e.reason}"): say why it fails and when it will not`);
}

/** What --write-baseline writes an entry for: each failing scenario by name (narrow), or each failing rule. */
export type BaselineEntries = "scenario" | "rule";

/**
 * The baseline that makes this run's failures expected (--write-baseline), keeping the reason of an
 * entry the run's baseline already had. By scenario, one narrow defect baselines the scenarios it
 * breaks and nothing else of the rules they cite; by rule, every scenario of those rules.
 */
export function baselineFileFor(
  entries: BaselineEntries,
  rules: ReadonlyArray<{ id: string; verdict: string; baseline?: { reason: string } }>,
  results: readonly ScenarioResult[],
  baseline: Baseline,
): string {
  const failingRules = rules.filter((r) => r.verdict === "fail" || r.verdict === "baselined");
  const expectedFailures =
    entries === "rule"
      ? failingRules.map((r) => ({ rule: r.id, reason: r.baseline?.reason ?? PLACEHOLDER_REASON }))
      : [...new Set(results.filter((x) => x.verdict === "fail").map((x) => x.name))].map((scenario) => ({
          scenario,
          reason: baseline.scenarios.get(scenario) ?? [...baseline.rules].find(([id]) => results.some((x) => x.name === scenario && (x.blame ?? []).includes(id)))?.[1] ?? PLACEHOLDER_REASON,
        }));
  return `${JSON.stringify(baselineFileSchema.parse({ expectedFailures }), null, 2)}\n`;
}
