import { citedRules, familyOf, RULE_TAG, type Rule } from "../rules.js";
import {
  baselinedScenario,
  entryProblem,
  entryText,
  NO_BASELINE,
  scenarioEntries,
  type Baseline,
  type BaselineEntry,
  type BaselineEntryReport,
} from "./baseline.js";
import type { FailureExplanation } from "./failure-context.js";
import type { PassEvery } from "./repetitions.js";
import { NOT_RUN, type ScenarioResult } from "./scenario-results.js";

/**
 * `baselined`: it failed, and the run's baseline expected it to (never a pass); `flaky`: a scenario failed, then passed on a retry (report/flaky.ts);
 * `not-run`: the run ended (stopped) before any of its scenarios finished: not judged either way.
 */
export type RuleVerdict = "pass" | "fail" | "baselined" | "flaky" | "not-applicable" | "uncovered" | "not-selected" | "not-run";
export type Level = "must" | "should" | "may";

export interface RuleScenario {
  name: string;
  uri: string;
  line: number | undefined;
  verdict: ScenarioResult["verdict"] | "baselined" | "flaky" | "not-run";
  reason: string | undefined;
  /** Not judged because an earlier step of the scenario failed, not because this run's adapter cannot. */
  stopped?: true;
  failure?: FailureExplanation;
}

export interface RuleReport extends Rule {
  family: string;
  verdict: RuleVerdict;
  reason: string | undefined;
  /** Set when the baseline names this rule: its entry's reason (with its issue), what it pins, and what this run made of it. */
  baseline?: { reason: string; status: BaselineEntryReport["status"]; expect?: BaselineEntry["expect"]; issue?: string };
  scenarios: RuleScenario[];
  /** A pass on the scenarios that ran, others not applicable here (the reason says how many). */
  partly?: true;
  /** How many times the run judged it: its scenarios that passed, and its situations the oracles judged in every scenario's history. */
  judged?: { scenarios: number; oracleChecks: number };
  /** Under --repeat N: of its scenarios judged, how many passed in all N runs (pass^N). */
  repeat?: PassEvery;
}

export const LEVELS: Record<Level, ReadonlyArray<Rule["level"]>> = { must: ["MUST"], should: ["MUST", "SHOULD"], may: ["MUST", "SHOULD", "MAY"] };

/** What a failure that judged no rule met, in a phrase: the gate and the reports say it. */
export function nothingJudgedText(s: ScenarioResult): string {
  const step = s.failure?.step ?? "a step";
  if (s.nothingJudged === "no-answer") return `${step} got no answer (none in time, or the connection ended)`;
  if (s.nothingJudged === "unexpected-answer") return `${step} met an answer the scenario could not go on from, which no rule's wording names`;
  return `${step}, which only prepares the scenario, failed`;
}

/**
 * What one scenario says about one rule. A failure counts against the rules its failed step checks
 * (ScenarioResult.blame); a failed scenario passes none of its other rules: they are not judged by it,
 * whether their own checks had run and held before it failed or not (the reason says which).
 */
function scenarioOf(s: ScenarioResult, baseline: Baseline, ruleId: string): RuleScenario {
  const base = { name: s.name, uri: s.uri, line: s.line };
  if (s.verdict === "fail" && s.blame && !s.blame.includes(ruleId)) {
    const where = s.blame.length > 0 ? `${s.failure?.step ?? "a step"} failed (${s.blame.join(", ")})` : nothingJudgedText(s);
    // A failure that blames no rule is still shown, under each rule it kept from being judged.
    const shown = s.blame.length === 0 && s.failure ? { failure: s.failure } : {};
    const reason = s.held?.includes(ruleId)
      ? `not judged: its checks of ${ruleId} held, then ${where}; a failed scenario passes no rule`
      : `not judged: the scenario stopped before its checks of ${ruleId} ran; ${where}`;
    return { ...base, verdict: "not-applicable", stopped: true, reason, ...shown };
  }
  const expected = baselinedScenario(baseline, s);
  return {
    ...base,
    verdict: expected ? "baselined" : s.status === NOT_RUN ? "not-run" : s.verdict,
    reason: expected ? `baselined (${expected}): ${s.reason}` : s.reason,
    ...(s.failure ? { failure: s.failure } : {}),
  };
}

/** A rule's verdict from its scenarios: fail beats baselined beats not-run beats not-applicable beats pass. */
function verdictOf(mine: RuleScenario[]): { verdict: RuleVerdict; reason: string | undefined; partly?: true } {
  const count = (v: RuleScenario["verdict"]) => mine.filter((s) => s.verdict === v);
  const [failed, baselined, na, notRun] = [count("fail"), count("baselined"), count("not-applicable"), count("not-run")];
  const [firstFailed, firstBaselined, firstNa, firstNotRun] = [failed[0], baselined[0], na[0], notRun[0]];
  if (firstFailed) return { verdict: "fail", reason: `${failed.length} of ${mine.length} scenario(s) failed: ${firstFailed.name}` };
  if (firstBaselined)
    return { verdict: "baselined", reason: `${baselined.length} of ${mine.length} scenario(s) failed as the baseline expects: ${firstBaselined.name}` };
  const passed = count("pass");
  // A run that ended (stopped) before a rule's scenarios finished did not judge it: never a failure.
  if (passed.length === 0 && (mine.length === 0 || firstNotRun))
    return {
      verdict: "not-run",
      reason: firstNotRun ? `${notRun.length} of ${mine.length} scenario(s) not run: ${firstNotRun.reason}` : "not run: none of its scenarios finished",
    };
  // Some scenarios ran and passed, the others were not run or cannot run with this broker: a pass on what was judged, saying what was not.
  const unjudged = [
    ...(firstNotRun ? [`${notRun.length} not run: ${firstNotRun.reason}`] : []),
    ...(firstNa ? [`the rest not judged here: ${firstNa.reason}`] : []),
  ];
  if (unjudged.length > 0 && passed.length > 0 && na.every((s) => s.stopped !== true)) {
    return { verdict: "pass", reason: `pass (${passed.length} of ${mine.length} scenarios; ${unjudged.join("; ")})`, partly: true };
  }
  if (firstNa) return { verdict: "not-applicable", reason: `${na.length} of ${mine.length} scenario(s) not applicable: ${firstNa.reason}` };
  return { verdict: "pass", reason: undefined };
}

/**
 * A rule fails if any of its scenarios failed; passes only if every one ran and passed; is
 * not-applicable if one could not run here (never a pass); uncovered if no scenario cites it.
 * `selected` holds the rules the run's tag filter reached; the others are "not-selected". A failure
 * the baseline expects (by rule or by scenario) is "baselined"; a baselined rule that passes is stale.
 */
export function judgeRules(
  rules: Rule[],
  results: ScenarioResult[],
  covered: ReadonlySet<string>,
  selected: ReadonlySet<string> | undefined,
  baseline: Baseline = NO_BASELINE,
  inSuite?: Readonly<Record<string, number>>,
): RuleReport[] {
  const known = new Set(rules.map((r) => r.id));
  return rules.map((rule) => {
    // A scenario judges the rules it cites, and fails one it does not cite when its failure names it
    // (an envelope check of a reply, made in every scenario).
    const scenarios = results
      .filter((s) => citedRules(s.tags, known).includes(rule.id) || (s.verdict === "fail" && s.blame?.includes(rule.id)))
      .map((s) => scenarioOf(s, baseline, rule.id));
    const entry = baseline.rules.get(rule.id);
    const times = {
      scenarios: scenarios.filter((s) => s.verdict === "pass").length,
      oracleChecks: results.reduce((n, s) => n + (s.oracleJudged?.[rule.id] ?? 0), 0),
    };
    const base = { ...rule, family: familyOf(rule.id), scenarios, judged: times };
    const judged = !covered.has(rule.id)
      ? { verdict: "uncovered" as const, reason: "no scenario cites this rule" }
      : selected && !selected.has(rule.id) && scenarios.length === 0
        ? { verdict: "not-selected" as const, reason: "the run's tag filter selected none of its scenarios" }
        : verdictOf(scenarios);
    if (entry === undefined) return { ...base, ...judged };
    const expected = entryText(entry);
    const pinned = (status: BaselineEntryReport["status"]) => ({
      reason: expected,
      status,
      ...(entry.expect ? { expect: entry.expect } : {}),
      ...(entry.issue ? { issue: entry.issue } : {}),
    });
    // Pinned "not judged": a failure is a failure, not excused; not judged is what it expects.
    if (entry.expect === "not-judged" && (judged.verdict === "fail" || judged.verdict === "baselined"))
      return { ...base, ...judged, baseline: pinned("changed") };
    if (entry.expect === "not-judged" && judged.verdict === "not-applicable")
      return {
        ...base,
        ...judged,
        reason: `${judged.reason}; not judged here, as the baseline expects (${expected})`,
        baseline: pinned("expected-not-judged"),
      };
    if (judged.verdict === "fail")
      return { ...base, verdict: "baselined", reason: `baselined (${expected}): ${judged.reason}`, baseline: pinned("expected-failure") };
    // Pinned "fail": not judged hides the failure the entry is there for.
    if (entry.expect === "fail" && judged.verdict === "not-applicable") return { ...base, ...judged, baseline: pinned("changed") };
    // Stale only when every scenario the entry covers ran and passed: a --tags run that skipped the
    // failing one (or a stopped run that did not finish it) must not tell the user to remove an entry the next whole run still needs.
    const ran = scenarios.filter((s) => s.verdict !== "not-run").length;
    const ranAll = inSuite === undefined || ran >= (inSuite[rule.id] ?? 0);
    const status = judged.verdict === "pass" ? (ranAll ? "stale" : "partly-run") : judged.verdict === "baselined" ? "expected-failure" : "not-run";
    const reason =
      status === "stale"
        ? `stale baseline entry: ${rule.id} no longer fails; remove it from the baseline`
        : status === "partly-run"
          ? `baselined; the ${ran} of its ${inSuite?.[rule.id]} scenarios that ran passed, so the entry stands until a run of all of them passes`
          : judged.reason;
    return { ...base, ...judged, reason, baseline: pinned(status) };
  });
}

/** Every baseline entry and what this run made of it. */
/** `baseline` whole, expired known-flaky entries included (they are reported, and excuse nothing: judgeRules had the active baseline). */
export function baselineReport(rules: RuleReport[], results: ScenarioResult[], baseline: Baseline, startedAt: string): BaselineEntryReport[] {
  const ruleEntries = rules.flatMap((r) => {
    const entry = baseline.rules.get(r.id);
    return r.baseline && entry ? [{ kind: "rule" as const, name: r.id, ...entry, status: r.baseline.status }] : [];
  });
  return [...ruleEntries, ...scenarioEntries(baseline, results, startedAt)];
}

/** The rules at the level this run judged: not-selected and not-run never, not-applicable only under --require-all. */
const judgedAt = (reports: RuleReport[], level: Level, requireAll: boolean) =>
  reports.filter(
    (r) => LEVELS[level].includes(r.level) && r.verdict !== "not-selected" && r.verdict !== "not-run" && (requireAll || r.verdict !== "not-applicable"),
  );

/**
 * Under --require-all, a rule not judged here that the baseline expects not judged (its entry, or
 * entries for each of its scenarios not judged, pin "not-judged"): a capability the team knows its
 * broker lacks does not fail the gate.
 */
function notJudgedAsExpected(r: RuleReport, baseline: Baseline): boolean {
  if (r.verdict !== "not-applicable" && !r.partly) return false;
  if (r.baseline?.status === "expected-not-judged") return true;
  const unjudged = r.scenarios.filter((s) => s.verdict === "not-applicable");
  return unjudged.length > 0 && unjudged.every((s) => baseline.scenarios.get(s.name)?.expect === "not-judged");
}

/** Whether a rule not judged was stopped by earlier failures only: another broker, any adapter, would judge it once those pass. */
const stoppedOnly = (r: RuleReport) => r.scenarios.filter((s) => s.verdict === "not-applicable").every((s) => s.stopped === true);

/** The rules at the level that this run's profile could not judge (not applicable here). */
export const notJudged = (reports: RuleReport[], level: Level) =>
  reports.filter((r) => LEVELS[level].includes(r.level) && r.verdict === "not-applicable" && !stoppedOnly(r));

/** The rules at the level left unjudged because an earlier step of their scenarios failed. */
export const notReached = (reports: RuleReport[], level: Level) =>
  reports.filter((r) => LEVELS[level].includes(r.level) && r.verdict === "not-applicable" && stoppedOnly(r));

/**
 * Conformant (over the run's profile): every rule at the chosen level that this run judged passed,
 * and at least one was judged. Under `requireAll` a rule not judged here counts against it.
 */
export function isConformant(reports: RuleReport[], level: Level, requireAll = false): boolean {
  const inLevel = judgedAt(reports, level, requireAll);
  return inLevel.length > 0 && inLevel.every((r) => r.verdict === "pass");
}

/**
 * What a CI gate decides: every judged rule at the level passed or failed as the baseline expects,
 * no baseline entry is stale, and no scenario failed outside any rule. Rules the profile cannot
 * judge fail the gate only under `requireAll`.
 */
export function gateProblems(
  reports: RuleReport[],
  level: Level,
  results: ScenarioResult[],
  entries: BaselineEntryReport[],
  baseline: Baseline,
  requireAll = false,
): string[] {
  const inLevel = judgedAt(reports, level, requireAll).filter((r) => !requireAll || !notJudgedAsExpected(r, baseline));
  const problems: string[] = [];
  if (inLevel.length === 0) problems.push("no rule at this level was judged");
  for (const r of inLevel.filter((x) => x.verdict !== "pass" && x.verdict !== "baselined")) {
    problems.push(`${r.id}: ${r.verdict === "not-applicable" ? "not judged (--require-all)" : r.verdict}${r.reason ? ` (${r.reason})` : ""}`);
  }
  for (const e of entries.filter((x) => x.status === "stale"))
    problems.push(`stale baseline entry: ${e.kind} ${e.name} passes now; remove it from ${baseline.file}`);
  for (const e of entries) {
    const problem = entryProblem(e, baseline.file);
    if (problem) problems.push(problem);
  }
  for (const s of results.filter((x) => x.verdict === "fail" && !x.tags.some((t) => RULE_TAG.test(t)) && !baselinedScenario(baseline, x))) {
    problems.push(`"${s.name}" failed and cites no rule`);
  }
  // A failure that broke no rule the kit can name (no answer in time, an answer no rule names, a
  // preparing step) judged none of its rules, yet the scenario did not pass: the gate does not pass it.
  for (const s of results.filter(
    (x) => x.verdict === "fail" && x.blame?.length === 0 && x.tags.some((t) => RULE_TAG.test(t)) && !baselinedScenario(baseline, x),
  )) {
    problems.push(`"${s.name}": ${nothingJudgedText(s)}, so none of its rules was judged: ${s.reason ?? "no reply"}`);
  }
  // --require-all: a rule some of whose scenarios could not run here is not wholly judged.
  if (requireAll) for (const r of inLevel.filter((x) => x.partly)) problems.push(`${r.id}: ${r.reason} (--require-all)`);
  return problems;
}
