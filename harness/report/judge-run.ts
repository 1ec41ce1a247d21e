import type { Profile } from "../run/profiles.js";
import { citedRules, type Rule } from "../rules.js";
import { activeBaseline, baselinedScenario, baselineWarnings, knownFlaky, type Baseline, type BaselineEntryReport } from "./baseline.js";
import { failureGroups, setupProblemOf } from "./failure-groups.js";
import { baselineReport, gateProblems, isConformant, judgeRules, LEVELS, notJudged, notReached, type Level } from "./rule-verdicts.js";
import { NOT_RUN, type ScenarioResult } from "./scenario-results.js";
import type { Invocation, RerunOf, ScenarioVerdictEntry } from "./run-record.js";
import { attemptSeed } from "../run/run-parameters.js";
import { replayCommand, type Attempt } from "./attempts.js";
import { flakyScenarios, flakyWarnings, gatedRules, withFlakyRules, type Replay } from "./flaky.js";
import { headlineOf, stoppedHeadline, summarize, type RunSummary } from "./run-summary.js";
import { passEvery } from "./repetitions.js";

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
  /** Why the run stopped before its last scenario (a signal): it is NOT RUN to the end, whatever the rules that finished say. */
  stopped?: string;
  invocation?: Invocation;
  rerunOf?: RerunOf;
  /** Each scenario cucumber tried more than once (--retries), by `uri:name`. */
  attempts?: ReadonlyMap<string, readonly Attempt[]>;
  /** --flaky-ok: a flaky rule passes the gate (said as a warning). */
  flakyOk?: boolean;
  /** --scenario-seed: every scenario's first seed, in place of the one its name derives. */
  replaySeed?: number;
  /** --repeat N: the scenarios ran N times (attempts hold the repetitions of those some repetition failed); each rule gets its pass^N. */
  repeat?: number;
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
  const ruleIds = new Set(i.rules.map((r) => r.id));
  const covered = new Set(i.suite.flatMap((s) => citedRules(s.tags, ruleIds)));
  const partial = i.tags !== undefined || i.shard !== undefined || i.selection !== undefined;
  const selected = partial ? new Set(i.results.flatMap((s) => citedRules(s.tags, ruleIds))) : undefined;
  const scenariosInSuite = countBy(i.suite.flatMap((sc) => citedRules(sc.tags, ruleIds)));
  const attempts = i.attempts ?? new Map<string, readonly Attempt[]>();
  const flaky = flakyScenarios(i.results, attempts);
  const replay = (s: { uri: string; line: number | undefined }, seed: number | undefined) => replayCommand(s, i.seed, seed, i.invocation?.broker ?? []);
  // A known-flaky entry past its date excuses nothing; it is reported, and fails the run.
  const baseline = activeBaseline(i.baseline, i.startedAt);
  const known = knownFlaky(baseline);
  const repeat = i.repeat;
  const rules = withFlakyRules(
    judgeRules(i.rules, i.results, covered, selected, baseline, scenariosInSuite),
    flaky,
    attempts,
    replay,
    repeat !== undefined,
  ).map((r) => {
    const figure = repeat === undefined ? undefined : passEvery(r, attempts, repeat, i.results);
    return figure ? { ...r, repeat: figure } : r;
  });
  const entries = baselineReport(rules, i.results, i.baseline, i.startedAt);
  const gated = gatedRules(rules, i.flakyOk ?? false, known);
  const problems = gateProblems(gated, i.level, i.results, entries, baseline, i.requireAll);
  const conformant = problems.length === 0 && isConformant(gated, i.level, i.requireAll);
  const baselinedRules = new Set(rules.filter((r) => r.verdict === "baselined").map((r) => r.id));
  /** Why a failed scenario was expected to fail: named in the baseline, or every rule it fails is. */
  const baselinedScenarioReason = (x: ScenarioResult) =>
    x.verdict !== "fail"
      ? undefined
      : (baselinedScenario(baseline, x) ??
        ((x.blame ?? citedRules(x.tags, ruleIds)).every((id) => baselinedRules.has(id)) ? "the rules it fails are baselined" : undefined));
  const expectedFailures = i.results.filter((x) => baselinedScenarioReason(x) !== undefined).length;
  // A broker that failed every scenario at its start was not judged at all: a setup problem (exit 2), not a verdict;
  // a stopped run is not judged as a whole either (its rules still show what finished).
  const setup = i.stopped ?? setupProblemOf(i.results);
  const verdict = setup !== undefined ? "not-run" : problems.length > 0 ? "not-conformant" : conformant ? "conformant" : "conformant-with-baseline";
  // A --tags run is judged on the rules it reached: the headline counts those, not the whole suite.
  const atLevel = rules.filter((r) => LEVELS[i.level].includes(r.level) && (!partial || r.verdict !== "not-selected"));
  const judgedRules = atLevel.filter((r) => !["not-selected", "not-applicable", "uncovered", "not-run"].includes(r.verdict));
  // A partial run judges a rule on the scenarios it ran: one some of whose scenarios did not run was judged in part.
  const inPart = partial ? judgedRules.filter((r) => r.scenarios.length < (scenariosInSuite[r.id] ?? 0)).length : 0;
  const profile = {
    name: i.profile.name,
    notJudged: notJudged(rules, i.level).map((r) => r.id),
    elsewhere: i.profile.elsewhere,
    notReached: notReached(rules, i.level).map((r) => r.id),
  };
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
    headline:
      i.stopped !== undefined
        ? stoppedHeadline(i.stopped, rules, i.level)
        : setup !== undefined
          ? `NOT RUN: ${setup}`
          : headlineOf(verdict, profile, judgedRules.length, atLevel.length, i.level, staleOnly(entries, problems, i.baselineFile), inPart),
    conformant: conformant && setup === undefined,
    problems: setup !== undefined ? [setup] : problems,
    failureGroups: failureGroups(i.results, (s) => baselinedScenarioReason(s) === undefined),
    warnings: [...baselineWarnings(i.baseline), ...flakyWarnings(rules, i.flakyOk ?? false, known), ...oracleFaultWarnings(i.results)],
    scenarios: summarize(i.results, expectedFailures, flaky.size),
    rules,
    baselineEntries: entries,
    scenariosInSuite,
    scenarioVerdicts: i.results.map((x): ScenarioVerdictEntry => {
      const tries = attempts.get(`${x.uri}:${x.name}`);
      return {
        name: x.name,
        uri: x.uri,
        ...(x.line !== undefined ? { line: x.line } : {}),
        verdict: baselinedScenarioReason(x) !== undefined ? "baselined" : flaky.has(`${x.uri}:${x.name}`) ? "flaky" : x.verdict,
        // As steps/support.ts derives it: the seed that replays this scenario alone.
        seed: attemptSeed(i, `${x.uri}:${x.name}`, 0),
        ...(x.blame ? { blame: x.blame } : {}),
        ...(x.harnessFault !== undefined ? { harnessFault: true } : {}),
        ...(tries ? { attempts: attemptsOf(x, tries, replay) } : {}),
      };
    }),
    ...(i.invocation ? { invocation: i.invocation } : {}),
    ...(i.rerunOf ? { rerunOf: i.rerunOf } : {}),
    ...(repeat !== undefined ? { repeat } : {}),
  };
  return { run, baselinedScenarioReason };
}

/** A retried (or repeated) scenario's attempts as the reports list them: each one's seed, verdict and replay line. */
function attemptsOf(x: ScenarioResult, tries: readonly Attempt[], replay: Replay): NonNullable<ScenarioVerdictEntry["attempts"]> {
  return tries.map((a, n) => ({
    attempt: a.attempt,
    ...(a.seed !== undefined ? { seed: a.seed } : {}),
    // A failed attempt failed; one that did not is the scenario's own verdict when it is the last
    // (a retry's), or passed (a repetition's); every one of a scenario the run did not finish failed
    // (stopped before its next try finished).
    verdict: a.failed ? "fail" : n === tries.length - 1 ? (x.status === NOT_RUN ? "fail" : x.verdict) : "pass",
    ...(a.message ? { reason: a.message } : {}),
    replay: replay(x, a.seed),
  }));
}

/** An oracle that failed on a scenario's history: the harness's fault, named in every report (its rules there rest on the steps alone). */
const oracleFaultWarnings = (results: readonly ScenarioResult[]) =>
  results.flatMap((r) =>
    (r.oraclesUnknown ?? []).map((u) => `harness error: in "${r.name}" the oracle ${u.split("\n")[0]} — not judged by it; the scenario's other verdicts stand`),
  );

/**
 * When stale baseline entries are all that fails the gate, the headline says so first: every rule
 * passed or failed as expected, and the fix is to the baseline, not the broker.
 */
function staleOnly(entries: readonly BaselineEntryReport[], problems: readonly string[], file: string | undefined): string | undefined {
  const stale = entries.filter((e) => e.status === "stale");
  if (stale.length === 0 || stale.length !== problems.length) return undefined;
  const names = stale.map((e) => (e.kind === "scenario" ? `scenario "${e.name}"` : `rule ${e.name}`)).join(", ");
  return `only because the baseline entr${stale.length === 1 ? "y" : "ies"} ${names} ${stale.length === 1 ? "is" : "are"} stale (passing now: remove ${stale.length === 1 ? "it" : "them"} from ${file ?? "the baseline"}, or run with --update-baseline ${file ?? "FILE"})`;
}
