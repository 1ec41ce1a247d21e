import { LEVELS, type Level, type RuleReport } from "./rule-verdicts.js";
import type { BaselineEntryReport } from "./baseline.js";
import type { FailureGroup } from "./failure-groups.js";
import { NOT_RUN, type ScenarioResult } from "./scenario-results.js";
import type { Invocation, RerunOf, ScenarioVerdictEntry } from "./run-record.js";
import type { Provenance } from "./provenance.js";
import type { Evidence } from "./evidence.js";

// A judged run as every report reads it: its summary, verdict and headline; each report format
// (markdown, HTML, junit, the badge, JSON) renders it in a file of its own.

/** not-run: the broker failed its preflight (or the harness failed) before any scenario ran, or the run was stopped before its last finished (exit 2). */
export type RunVerdict = "conformant" | "conformant-with-baseline" | "not-conformant" | "not-run";

export interface RunSummary {
  broker: { adapter: string; serverInfo: { name: string; version: string } | undefined };
  seed: number;
  level: Level;
  tags: string | undefined;
  /** Set on one shard's own reports ("2/3"): a part of a run, judged on the rules it reached. */
  shard?: string;
  /** The command line that made this run, as typed (the NOT RUN banner shows it). */
  command?: string;
  /** Set when the run chose some scenarios (what it chose, in words): judged on the rules it reached. */
  selection?: string;
  /** Set on a merged run's reports: each shard's times, and the longest (what the sharded run took). */
  shards?: ShardTimes;
  baseline: string | undefined;
  startedAt: string;
  durationMs: number;
  /**
   * The adapter's profile: what this run could not judge, and where it can be judged; and apart
   * from it, the rules no scenario reached because an earlier step failed (any adapter would judge them).
   */
  profile: { name: string; notJudged: string[]; elsewhere: string; notReached?: string[] };
  /** --require-all: a rule not judged here fails the run. */
  requireAll: boolean;
  /**
   * One verdict for every report: not-conformant whenever the gate fails (exit 1), a stale baseline
   * entry included; conformant: every judged rule passed; with-baseline: the rest failed as expected.
   */
  verdict: RunVerdict;
  /** The verdict in one line, as the console, conformance.md, junit.xml and the badge say it. */
  headline: string;
  conformant: boolean;
  /** Why the gate fails (exit 1); empty when it passes. */
  problems: string[];
  /** What deserves attention without failing the run (a baseline entry whose reason is still a placeholder). */
  warnings: string[];
  /** The failures the gate counts, grouped by likely root cause, largest first. */
  failureGroups: FailureGroup[];
  /** `notRun`: the scenarios a stopped run did not finish (apart from notApplicable, which the adapter cannot judge). */
  scenarios: { total: number; pass: number; fail: number; baselined: number; notApplicable: number; flaky?: number; notRun?: number };
  rules: RuleReport[];
  baselineEntries: BaselineEntryReport[];
  /** How many scenarios of the whole suite cite each rule: a --tags run may reach only some. */
  scenariosInSuite: Record<string, number>;
  /** Every scenario's own verdict and seed, for a rerun of the failures and a comparison of two runs. */
  scenarioVerdicts?: ScenarioVerdictEntry[];
  /** How the run was called, as far as a rerun of its failures repeats it. */
  invocation?: Invocation;
  /** Set on a rerun's reports (--rerun-failed): the run it re-ran. */
  rerunOf?: RerunOf;
  /** --repeat N: each scenario ran N times; each rule says its pass^N. */
  repeat?: number;
  /** Where the verdicts come from: the kit and its rules, the broker, profile, seed, Node and start (provenance.ts). */
  provenance?: Provenance;
  /** What the verdicts were derived from and its digest, for `lomi-conformance verify` (report/evidence.ts). */
  evidence?: Evidence;
}

export interface ShardTimes {
  parts: Array<{ shard: string; scenarios: number; durationMs: number; wallMs: number }>;
  longest: { shard: string; wallMs: number };
}

/** "Shards: 1/3 41.2 s, 2/3 39.8 s, 3/3 40.5 s (wall time); longest 1/3, 41.2 s", for the merged reports. */
export const shardTimesText = (s: ShardTimes) =>
  `Shards: ${s.parts.map((p) => `${p.shard} ${(p.wallMs / 1000).toFixed(1)} s (${p.scenarios} scenarios)`).join(", ")} (wall time); longest ${s.longest.shard}, ${(s.longest.wallMs / 1000).toFixed(1)} s`;

/** How many of a rule's scenarios ran, of those the suite has. */
export function ranOf(r: RuleReport, run: Pick<RunSummary, "scenariosInSuite">): { ran: number; inSuite: number } {
  return { ran: r.scenarios.length, inSuite: run.scenariosInSuite[r.id] ?? r.scenarios.length };
}

/** The run's headline, saying first when a --tags run reached only part of the suite. */
export function titleOf(run: RunSummary, code: (text: string) => string): string {
  if (!isPartial(run) || run.verdict === "not-run") return run.headline;
  const tags = run.tags ? `tags ${code(run.tags)}` : undefined;
  const part = run.shard
    ? `shard ${run.shard}${tags ? ` of ${tags}` : ""}`
    : `partial run (${[tags, run.selection].filter((x) => x !== undefined).join(", ")})`;
  return `${part}: ${listedRules(run).length} of ${run.rules.length} rules reached; on those: ${run.headline}`;
}

/** The rules a report lists: a --tags run, or a shard, lists only those it reached. */
export const listedRules = (run: RunSummary) => (isPartial(run) ? run.rules.filter((r) => r.verdict !== "not-selected") : run.rules);

const isPartial = (run: Pick<RunSummary, "tags" | "shard" | "selection">) => Boolean(run.tags || run.shard || run.selection);

/** The rules a run's level judges, in words: "MUST", "MUST and SHOULD", "MUST, SHOULD and MAY". */
export const levelWords = (level: Level) => LEVELS[level].join(", ").replace(/, (?=[A-Z]+$)/, " and ");

/** "CONFORMANT over stdio: 111 of 117 MUST rules judged; not judged here: AUTH-05, …; run over HTTP …" (a partial run: "8 of 8 MUST rules judged, 6 of them in part"). */
export function headlineOf(
  verdict: RunVerdict,
  profile: RunSummary["profile"],
  judged: number,
  total: number,
  level: Level,
  because?: string,
  inPart = 0,
): string {
  const word = {
    conformant: "CONFORMANT",
    "conformant-with-baseline": "CONFORMANT APART FROM BASELINED FAILURES",
    "not-conformant": "NOT CONFORMANT",
    "not-run": "NOT RUN",
  }[verdict];
  const notJudged =
    profile.notJudged.length > 0 ? `; not judged here: ${profile.notJudged.join(", ")}${profile.elsewhere ? `; ${profile.elsewhere}` : ""}` : "";
  const notReached =
    (profile.notReached ?? []).length > 0 ? `; not judged because an earlier step of their scenarios failed: ${profile.notReached!.join(", ")}` : "";
  const part = inPart > 0 ? `, ${inPart} of them in part (not every scenario of theirs ran)` : "";
  return `${word}${because ? ` ${because}` : ""} over ${profile.name}: ${judged} of ${total} ${levelWords(level)} rules judged${part}${notJudged}${notReached}`;
}

/** The scenario counts; `flaky` of the passes passed only on a retry, and count apart; so do those a stopped run did not finish. */
export function summarize(results: ScenarioResult[], baselined: number, flaky = 0) {
  const fail = results.filter((r) => r.verdict === "fail").length;
  const notRun = results.filter((r) => r.status === NOT_RUN).length;
  return {
    total: results.length,
    pass: results.filter((r) => r.verdict === "pass").length - flaky,
    ...(flaky > 0 ? { flaky } : {}),
    fail: fail - baselined,
    baselined,
    notApplicable: results.filter((r) => r.verdict === "not-applicable").length - notRun,
    ...(notRun > 0 ? { notRun } : {}),
  };
}

/** The scenario counts in words, as the console and conformance.md give them. */
export const scenarioCountsText = (c: RunSummary["scenarios"]) =>
  `${c.pass} passed, ${c.fail} failed, ${c.baselined} baselined, ${c.notApplicable} not applicable${c.flaky ? `, ${c.flaky} flaky` : ""}${c.notRun ? `, ${c.notRun} not run` : ""}`;

/**
 * A stopped run's headline: NOT RUN, why and how far it got, then what the rules of its level read
 * on the scenarios that finished ("…; on what finished, 33 of 118 MUST rules judged: 32 pass, 1 fail"),
 * the others not run. A stopped run claims nothing it did not finish, and hides nothing it did.
 */
export function stoppedHeadline(cause: string, rules: readonly RuleReport[], level: Level): string {
  const atLevel = rules.filter((r) => LEVELS[level].includes(r.level) && r.verdict !== "not-selected");
  const judged = atLevel.filter((r) => JUDGED.includes(r.verdict));
  if (judged.length === 0) return `NOT RUN: ${cause}; no ${levelWords(level)} rule was judged`;
  const counts = JUDGED.map((v) => [v, judged.filter((r) => r.verdict === v).length] as const).filter(([, n]) => n > 0);
  return `NOT RUN: ${cause}; on what finished, ${judged.length} of ${atLevel.length} ${levelWords(level)} rules judged: ${counts.map(([v, n]) => `${n} ${v}`).join(", ")}`;
}

/** The verdicts that judged a rule one way or the other. */
const JUDGED: ReadonlyArray<RuleReport["verdict"]> = ["pass", "fail", "baselined", "flaky"];

/**
 * What a NOT RUN report says first: a run that never started, or judged nothing before it stopped,
 * judged nothing; one stopped part way judged the rules its finished scenarios reached, and says so.
 */
export function notRunBanner(run: RunSummary): string {
  if (!run.rules.some((r) => JUDGED.includes(r.verdict))) return `NOT RUN: nothing was judged. ${run.problems[0] ?? ""}`;
  return `${run.headline}. The rules are judged on the scenarios that finished; the others read not run.`;
}

/** The summary of a run that never started: every report says NOT RUN and why, so a CI gate reading them sees the cause. */
export function notRunSummary(
  cause: string,
  run: Pick<RunSummary, "broker" | "seed" | "level" | "tags" | "startedAt" | "requireAll" | "command">,
  profileName: string,
): RunSummary {
  return {
    ...run,
    baseline: undefined,
    durationMs: 0,
    profile: { name: profileName, notJudged: [], elsewhere: "" },
    verdict: "not-run",
    headline: `NOT RUN: ${cause}`,
    conformant: false,
    problems: [cause],
    warnings: [],
    failureGroups: [],
    scenarios: { total: 0, pass: 0, fail: 0, baselined: 0, notApplicable: 0 },
    rules: [],
    baselineEntries: [],
    scenariosInSuite: {},
  };
}
