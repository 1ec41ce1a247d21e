import type { ScenarioResult } from "./scenario-results.js";

/**
 * Failures grouped by their likely root cause: the step that failed and what it found, with the
 * values that differ from scenario to scenario (identifiers, numbers, quoted names) taken out. One
 * defect (a retry that creates a second operation) fails many scenarios of many rules the same
 * way; the reports open with the groups, largest first, so a reader starts at the cause.
 */
export interface FailureGroup {
  /** The failed step, its values taken out ("Then operation "…" reads succeeded"). */
  step: string;
  /** The first line of what it found, its values taken out. */
  cause: string;
  scenarios: Array<{ name: string; uri: string; line: number | undefined }>;
  /** The rules these failures count against. */
  rules: string[];
}

const PREFIXES = /^(ConformanceViolation|AssertionError(?: \[ERR_ASSERTION\])?|HarnessFault|Error): /;

/** A step's text or a message with what varies between scenarios taken out. */
export function normalised(text: string): string {
  return text
    .replace(PREFIXES, "")
    .replace(/[[{].*$/s, "…") // a reply or ledger quoted whole: its shape is not the cause
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\blomi_[a-z_]+\b/g, "lomi_…") // one defect shows on every tool it touches
    .replace(/\b[a-z]+[-_][A-Za-z0-9]{6,}\b/g, "<id>") // op-jb7rub4gnxwp, epoch-…, term-…
    .replace(/\b[0-9a-f]{16,}\b/g, "<hex>")
    .replace(/\d+(\.\d+)?/g, "N")
    .replace(/\s+/g, " ")
    .trim();
}

const firstLine = (text: string | undefined) => (text ?? "").split("\n").find((l) => l.trim() !== "") ?? "";

/** The groups of the failures the gate counts (`counted`), largest first; a failure alone is a group of one. */
export function failureGroups(results: readonly ScenarioResult[], counted: (s: ScenarioResult) => boolean): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const s of results.filter((x) => x.verdict === "fail" && counted(x))) {
    const step = normalised(s.failure?.step ?? "(a hook)");
    const cause = normalised(firstLine(s.reason)).slice(0, 300);
    const key = `${step}\u0000${cause}`;
    const group = groups.get(key) ?? { step, cause, scenarios: [], rules: [] };
    group.scenarios.push({ name: s.name, uri: s.uri, line: s.line });
    for (const id of s.blame ?? []) if (!group.rules.includes(id)) group.rules.push(id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.scenarios.length - a.scenarios.length || a.step.localeCompare(b.step));
}

/**
 * "Every scenario that ran failed the same way at its start": the broker could not be judged at all
 * (it cannot connect, answers nothing the first step needs). Answers the cause, or undefined. At
 * least two scenarios, every one that was not "not applicable" failed, at its first step or in a
 * Before hook, with the same cause.
 */
export function setupProblemOf(results: readonly ScenarioResult[]): string | undefined {
  const ran = results.filter((r) => r.verdict !== "not-applicable");
  if (ran.length < 2 || ran.some((r) => r.verdict !== "fail" || (r.failedAtStep ?? 0) > 0)) return undefined;
  const causes = new Set(ran.map((r) => normalised(firstLine(r.reason))));
  if (causes.size !== 1) return undefined;
  const first = ran[0]!;
  return `every one of the ${ran.length} scenarios that ran failed at its first step the same way, so no rule could be judged: ${first.failure?.step ? `${first.failure.step}: ` : ""}${firstLine(first.reason).replace(PREFIXES, "")}`;
}
