import { citedRules, familyOf, type Rule } from "../rules.js";
import type { ScenarioResult } from "./scenario-results.js";

export type RuleVerdict = "pass" | "fail" | "not-applicable" | "uncovered" | "not-selected";
export type Level = "must" | "should" | "may";

export interface RuleReport extends Rule {
  family: string;
  verdict: RuleVerdict;
  reason: string | undefined;
  scenarios: Array<{ name: string; uri: string; line: number | undefined; verdict: string; reason: string | undefined }>;
}

const LEVELS: Record<Level, ReadonlyArray<Rule["level"]>> = { must: ["MUST"], should: ["MUST", "SHOULD"], may: ["MUST", "SHOULD", "MAY"] };

/**
 * A rule fails if any of its scenarios failed; passes only if every one ran and passed; is
 * not-applicable if one could not run here (never a pass); uncovered if no scenario cites it.
 * `selected` holds the rules the run's tag filter reached; the others are "not-selected".
 */
export function judgeRules(rules: Rule[], results: ScenarioResult[], covered: ReadonlySet<string>, selected: ReadonlySet<string> | undefined): RuleReport[] {
  const known = new Set(rules.map((r) => r.id));
  return rules.map((rule) => {
    const mine = results.filter((s) => citedRules(s.tags, known).includes(rule.id));
    const scenarios = mine.map((s) => ({ name: s.name, uri: s.uri, line: s.line, verdict: s.verdict, reason: s.reason }));
    const base = { ...rule, family: familyOf(rule.id), scenarios };
    if (!covered.has(rule.id)) return { ...base, verdict: "uncovered", reason: "no scenario cites this rule" };
    if (selected && !selected.has(rule.id)) return { ...base, verdict: "not-selected", reason: "the run's tag filter selected none of its scenarios" };
    const failed = mine.filter((s) => s.verdict === "fail");
    if (failed.length > 0) return { ...base, verdict: "fail", reason: `${failed.length} of ${mine.length} scenario(s) failed: ${failed[0]!.name}` };
    const na = mine.filter((s) => s.verdict === "not-applicable");
    if (mine.length === 0) return { ...base, verdict: "fail", reason: "its scenarios were selected but none finished" };
    if (na.length > 0) return { ...base, verdict: "not-applicable", reason: `${na.length} of ${mine.length} scenario(s) not applicable: ${na[0]!.reason}` };
    return { ...base, verdict: "pass", reason: undefined };
  });
}

/** Conformant: every rule at the chosen level that this run judged passed, and at least one was judged. */
export function isConformant(reports: RuleReport[], level: Level): boolean {
  const inLevel = reports.filter((r) => LEVELS[level].includes(r.level) && r.verdict !== "not-selected");
  return inLevel.length > 0 && inLevel.every((r) => r.verdict === "pass");
}
