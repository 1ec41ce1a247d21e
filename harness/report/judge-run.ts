import type { Profile } from "../profiles.js";
import { citedRules, type Rule } from "../rules.js";
import { baselineWarnings, type Baseline } from "./baseline.js";
import { failureGroups, setupProblemOf } from "./failure-groups.js";
import { baselineReport, gateProblems, isConformant, judgeRules, LEVELS, notJudged, notReached, type Level } from "./rule-verdicts.js";
import type { ScenarioResult } from "./scenario-results.js";
import type { Invocation, RerunOf, ScenarioVerdictEntry } from "./run-record.js";
import { scenarioSeed } from "../run-parameters.js";
import { headlineOf, summarize, type RunSummary } from "./write-reports.js";

export interface RunInputs {
  rules: Rule[];
  results: ScenarioResult[];
  /** Every scenario of the suite (the selection or not): what a rule would have had in a whole run. */
  suite: ReadonlyArray<{ tags: readonly string[] }>;
  tags: string | undefined;
  /** A shard's own partial judgement ("2/3"): like a --tags run, it judges only the rules it reached. */
  shard?: string;
  /** Chosen scenarios' label (a rerun of failures, a name): judged like a --tags run, on the rules reached. */
  selection?: string;
  /** The command line, for the reports to show. */
  command?: string;
  baseline: Baseline;
  baselineFile: string | undefined;
  level: Level;
  requireAll: boolean;
  profile: Profile;
  broker: RunSummary["broker"];
  seed: number;
  startedAt: string;
  durationMs: number;
  invocation?: Invocation;
  rerunOf?: RerunOf;
}

const countBy = (ids: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const id of ids) counts[id] = (counts[id] ?? 0) + 1;
  return counts;
};

/**
 * The run's judgement from its scenario results, pure: every rule's verdict, the gate's problems,
 * the verdict and headline every report says, and why each failed scenario was expected to fail.
 */
export function judgeRun(i: RunInputs): { run: RunSummary; baselinedScenarioReason: (s: ScenarioResult) => string | undefined } {
  const known = new Set(i.rules.map((r) => r.id));
  const covered = new Set(i.suite.flatMap((s) => citedRules(s.tags, known)));
  const partial = i.tags !== undefined || i.shard !== undefined || i.selection !== undefined;
  const selected = partial ? new Set(i.results.flatMap((s) => citedRules(s.tags, known))) : undefined;
  const scenariosInSuite = countBy(i.suite.flatMap((sc) => citedRules(sc.tags, known)));
  const rules = judgeRules(i.rules, i.results, covered, selected, i.baseline, scenariosInSuite);
  const entries = baselineReport(rules, i.results, i.baseline);
  const problems = gateProblems(rules, i.level, i.results, entries, i.baseline, i.requireAll);
  const conformant = problems.length === 0 && isConformant(rules, i.level, i.requireAll);
  const baselinedRules = new Set(rules.filter((r) => r.verdict === "baselined").map((r) => r.id));
  /** Why a failed scenario was expected to fail: named in the baseline, or every rule it fails is. */
  const baselinedScenarioReason = (x: ScenarioResult) =>
    x.verdict !== "fail" ? undefined : (i.baseline.scenarios.get(x.name) ?? ((x.blame ?? citedRules(x.tags, known)).every((id) => baselinedRules.has(id)) ? "the rules it fails are baselined" : undefined));
  const expectedFailures = i.results.filter((x) => baselinedScenarioReason(x) !== undefined).length;
  // A broker that failed every scenario at its start was not judged at all: a setup problem (exit 2), not a verdict.
  const setup = setupProblemOf(i.results);
  const verdict = setup !== undefined ? "not-run" : problems.length > 0 ? "not-conformant" : conformant ? "conformant" : "conformant-with-baseline";
  // A --tags run is judged on the rules it reached: the headline counts those, not the whole suite.
  const atLevel = rules.filter((r) => LEVELS[i.level].includes(r.level) && (!partial || r.verdict !== "not-selected"));
  const judgedCount = atLevel.filter((r) => !["not-selected", "not-applicable", "uncovered"].includes(r.verdict)).length;
  const profile = { name: i.profile.name, notJudged: notJudged(rules, i.level).map((r) => r.id), elsewhere: i.profile.elsewhere, notReached: notReached(rules, i.level).map((r) => r.id) };
  const run: RunSummary = {
    broker: i.broker,
    seed: i.seed,
    level: i.level,
    tags: i.tags,
    ...(i.shard !== undefined ? { shard: i.shard } : {}),
    ...(i.selection !== undefined ? { selection: i.selection } : {}),
    ...(i.command !== undefined ? { command: i.command } : {}),
    baseline: i.baselineFile,
    startedAt: i.startedAt,
    durationMs: i.durationMs,
    profile,
    requireAll: i.requireAll,
    verdict,
    headline: setup !== undefined ? `NOT RUN: ${setup}` : headlineOf(verdict, profile, judgedCount, atLevel.length, i.level),
    conformant: conformant && setup === undefined,
    problems: setup !== undefined ? [setup] : problems,
    failureGroups: failureGroups(i.results, (s) => baselinedScenarioReason(s) === undefined),
    warnings: baselineWarnings(i.baseline),
    scenarios: summarize(i.results, expectedFailures),
    rules,
    baselineEntries: entries,
    scenariosInSuite,
    scenarioVerdicts: i.results.map((x): ScenarioVerdictEntry => ({
      name: x.name,
      uri: x.uri,
      ...(x.line !== undefined ? { line: x.line } : {}),
      verdict: baselinedScenarioReason(x) !== undefined ? "baselined" : x.verdict,
      // As steps/support.ts derives it: the seed that replays this scenario alone.
      seed: scenarioSeed(i.seed, `${x.uri}:${x.name}`),
      ...(x.blame ? { blame: x.blame } : {}),
      ...(x.harnessFault !== undefined ? { harnessFault: true } : {}),
    })),
    ...(i.invocation ? { invocation: i.invocation } : {}),
    ...(i.rerunOf ? { rerunOf: i.rerunOf } : {}),
  };
  return { run, baselinedScenarioReason };
}
