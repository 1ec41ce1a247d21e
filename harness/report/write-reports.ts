import { writeFileSync } from "node:fs";
import path from "node:path";
import { badgeSvg } from "./badge.js";
import { boundedText } from "../text/bounded-json.js";
import { ledgerText, recordsText, stepsText } from "./failure-context.js";
import { junitXml } from "./junit.js";
import { htmlReport } from "./html-report.js";
import type { BaselineEntryReport } from "./baseline.js";
import type { FailureGroup } from "./failure-groups.js";
import { LEVELS, type Level, type RuleReport } from "./rule-verdicts.js";
import type { ScenarioResult } from "./scenario-results.js";
import type { Invocation, RerunOf, ScenarioVerdictEntry } from "./run-record.js";

/** not-run: the broker failed its preflight (or the harness failed) before any scenario ran (exit 2). */
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
  scenarios: { total: number; pass: number; fail: number; baselined: number; notApplicable: number; flaky?: number };
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
  const part = run.shard ? `shard ${run.shard}${tags ? ` of ${tags}` : ""}` : `partial run (${[tags, run.selection].filter((x) => x !== undefined).join(", ")})`;
  return `${part}: ${listedRules(run).length} of ${run.rules.length} rules reached; on those: ${run.headline}`;
}

/** The rules a report lists: a --tags run, or a shard, lists only those it reached. */
export const listedRules = (run: RunSummary) => (isPartial(run) ? run.rules.filter((r) => r.verdict !== "not-selected") : run.rules);

const isPartial = (run: Pick<RunSummary, "tags" | "shard" | "selection">) => Boolean(run.tags || run.shard || run.selection);

export const REPORT_FILES = ["cucumber.html", "junit.xml", "messages.ndjson", "conformance.json", "conformance.md", "conformance.svg", "conformance.html"];

/** The rules a run's level judges, in words: "MUST", "MUST and SHOULD", "MUST, SHOULD and MAY". */
export const levelWords = (level: Level) => LEVELS[level].join(", ").replace(/, (?=[A-Z]+$)/, " and ");

/** "CONFORMANT over stdio: 111 of 117 MUST rules judged; not judged here: AUTH-05, …; run over HTTP …" */
export function headlineOf(verdict: RunVerdict, profile: RunSummary["profile"], judged: number, total: number, level: Level, because?: string): string {
  const word = { conformant: "CONFORMANT", "conformant-with-baseline": "CONFORMANT APART FROM BASELINED FAILURES", "not-conformant": "NOT CONFORMANT", "not-run": "NOT RUN" }[verdict];
  const notJudged = profile.notJudged.length > 0 ? `; not judged here: ${profile.notJudged.join(", ")}${profile.elsewhere ? `; ${profile.elsewhere}` : ""}` : "";
  const notReached = (profile.notReached ?? []).length > 0 ? `; not judged because an earlier step of their scenarios failed: ${profile.notReached!.join(", ")}` : "";
  return `${word}${because ? ` ${because}` : ""} over ${profile.name}: ${judged} of ${total} ${levelWords(level)} rules judged${notJudged}${notReached}`;
}

/** The scenario counts; `flaky` of the passes passed only on a retry, and count apart. */
export function summarize(results: ScenarioResult[], baselined: number, flaky = 0) {
  const fail = results.filter((r) => r.verdict === "fail").length;
  return {
    total: results.length,
    pass: results.filter((r) => r.verdict === "pass").length - flaky,
    ...(flaky > 0 ? { flaky } : {}),
    fail: fail - baselined,
    baselined,
    notApplicable: results.filter((r) => r.verdict === "not-applicable").length,
  };
}

const ICON: Record<string, string> = {
  pass: "✅ pass",
  fail: "❌ fail",
  baselined: "🟨 baselined",
  flaky: "🔁 flaky",
  "not-applicable": "➖ not applicable",
  uncovered: "⚠️ uncovered",
  "not-selected": "· not selected",
};
const MAX_FAILURES = 10;
const MAX_PROBLEMS = 20;

// A table cell keeps every word: a note cut mid-word hid what failed.
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const clip = (value: unknown, max = 1500) => boundedText(value, max, 1);
/** Calls conformance.md shows of a failed scenario (conformance.html shows them all). */
const MD_EXCHANGES = 4;

/** One failed scenario, explained: the rules it checks, the step, what it expected, the request, the reply, the ledger. */
function failureSection(rules: RuleReport[], s: RuleReport["scenarios"][number]): string[] {
  const f = s.failure;
  const out = [`<details><summary>${rules.map((r) => r.id).join(", ")} · ${s.name} (${s.uri}:${s.line ?? "?"})</summary>`, ""];
  // The rule's own sentence beside the failure: a reader judges the finding against what the source says.
  for (const r of rules) out.push(`- ${r.id} (${r.level}): ${r.title}`, `  > ${cell(r.source)}`);
  out.push("");
  if (!f) return [...out, "```", clip(s.reason ?? ""), "```", "</details>", ""];
  if (f.lost) out.push(`Not shown: ${f.lost}.`, "");
  out.push(`Failed at: \`${f.step ?? "?"}\``, "");
  if (f.steps && f.steps.length > 0) out.push("Steps:", "```", stepsText(f.steps), "```");
  out.push("Expected / found:", "```", clip(f.message), "```");
  const calls = f.exchanges ?? [];
  if (calls.length > 0) {
    // The last calls, each request byte for byte as sent: the failure is at the end.
    const shown = calls.slice(-MD_EXCHANGES);
    out.push(`Calls (${calls.length > shown.length ? `the last ${shown.length} of ${calls.length}; all in conformance.html` : `${calls.length}, in order`}):`);
    for (const [i, e] of shown.entries()) out.push(`${calls.length - shown.length + i + 1}. ${e.agent} → \`${e.tool}\``, "```json", clip(e.sent), "```", "   reply:", "```json", clip(e.reply), "```");
  } else {
    if (f.request) out.push(`Request (${f.request.agent}): \`${f.request.tool}\``, "```json", clip(f.request.sent ?? f.request.args), "```");
    if (f.reply !== undefined) out.push("Reply:", "```json", clip(f.reply), "```");
  }
  if (f.ledger.length > 0) out.push("Lomi's ledger:", "```", clip(ledgerText(f.ledger)), "```");
  for (const o of f.oracles ?? []) {
    out.push(`Oracle \`${o.id}\` (${o.rules.join(", ")}): ${o.title}`);
    for (const v of o.violations) out.push(`- ${cell(v.message)}`, ...(v.records.length > 0 ? ["```", clip(recordsText(v.records)), "```"] : []));
  }
  return [...out, "</details>", ""];
}

/** Each failed scenario once, with every rule it fails. */
function failedScenarios(rules: RuleReport[]): Array<{ scenario: RuleReport["scenarios"][number]; rules: RuleReport[] }> {
  const byScenario = new Map<string, { scenario: RuleReport["scenarios"][number]; rules: RuleReport[] }>();
  for (const r of rules) {
    for (const s of r.scenarios.filter((x) => x.verdict === "fail" || (x.stopped && x.failure))) {
      const key = `${s.uri}:${s.line}:${s.name}`;
      const entry = byScenario.get(key) ?? { scenario: s, rules: [] };
      entry.rules.push(r);
      byScenario.set(key, entry);
    }
  }
  return [...byScenario.values()];
}

const MAX_GROUPS = 10;

/** The failures by likely root cause, largest first: one defect failing many rules reads as one line. */
function causesSection(groups: readonly FailureGroup[]): string[] {
  if (groups.length === 0) return [];
  const lines = groups.slice(0, MAX_GROUPS).map((g) => {
    const where = g.scenarios.slice(0, 3).map((s) => `${s.uri}:${s.line ?? "?"}`).join(", ");
    return `- **${g.scenarios.length} scenario(s)**${g.rules.length > 0 ? ` failing ${g.rules.join(", ")}` : ""}: at \`${cell(g.step)}\`: ${cell(g.cause)} (${where}${g.scenarios.length > 3 ? ", …" : ""})`;
  });
  const more = groups.length > MAX_GROUPS ? [`- … and ${groups.length - MAX_GROUPS} more causes, every one in conformance.json (\`failureGroups\`)`] : [];
  return ["Likely root causes (failures grouped by the step that failed and what it found):", ...lines, ...more, ""];
}

/** Each flaky scenario (--retries) with every attempt's seed and the command that replays it. */
function flakySection(run: RunSummary): string[] {
  const flaky = (run.scenarioVerdicts ?? []).filter((s) => s.verdict === "flaky");
  if (flaky.length === 0) return [];
  const lines = flaky.flatMap((s) => [`- ${cell(s.name)} (${s.uri}:${s.line ?? "?"})`, ...(s.attempts ?? []).map((a) => `  - attempt ${a.attempt} ${a.verdict}, seed ${a.seed ?? "?"}${a.reason ? `: ${cell(a.reason)}` : ""} — \`${a.replay}\``)]);
  return ["Flaky scenarios (failed, then passed on a retry):", ...lines, ""];
}

/** A compact table fit for a pull-request comment or a CI step summary, then the failures explained. */
export function markdownReport(run: RunSummary): string {
  const identity = run.broker.serverInfo ? ` (${run.broker.serverInfo.name} ${run.broker.serverInfo.version})` : "";
  const listed = listedRules(run);
  const head = [
    `## Lomi conformance: ${titleOf(run, (t) => `\`${t}\``)}`,
    "",
    `Broker: ${run.broker.adapter}${identity} · seed ${run.seed} · level ${run.level}${run.tags ? ` · tags \`${run.tags}\`` : ""}${run.baseline ? ` · baseline \`${run.baseline}\`` : ""} · ${(run.durationMs / 1000).toFixed(1)} s`,
    `Scenarios: ${run.scenarios.pass} passed, ${run.scenarios.fail} failed, ${run.scenarios.baselined} baselined, ${run.scenarios.notApplicable} not applicable${run.scenarios.flaky ? `, ${run.scenarios.flaky} flaky` : ""} (of ${run.scenarios.total})`,
    ...(run.shards ? [shardTimesText(run.shards)] : []),
    "",
    ...(run.problems.length > 0 ? ["Gate fails:", ...run.problems.slice(0, MAX_PROBLEMS).map((p) => `- ${cell(p)}`), ...(run.problems.length > MAX_PROBLEMS ? [`- … and ${run.problems.length - MAX_PROBLEMS} more gate problems, every one in conformance.json (\`problems\`)`] : []), ""] : []),
    ...(run.warnings.length > 0 ? ["Warnings:", ...run.warnings.map((w) => `- ${cell(w)}`), ""] : []),
    ...causesSection(run.failureGroups),
    ...flakySection(run),
    "| rule | level | verdict | scenarios | note |",
    "|---|---|---|---|---|",
  ];
  const rows = listed.map((r) => {
    const { ran, inSuite } = ranOf(r, run);
    const part = ran < inSuite ? ` (${ran} of ${inSuite} scenarios ran)` : "";
    return `| ${r.id} | ${r.level} | ${ICON[r.verdict]}${part} | ${r.scenarios.length} | ${cell(r.reason ?? r.title)} |`;
  });
  const failures = failedScenarios(run.rules);
  const explained = failures.slice(0, MAX_FAILURES).flatMap((f) => failureSection(f.rules, f.scenario));
  const more = failures.length > MAX_FAILURES ? [`… and ${failures.length - MAX_FAILURES} more failed scenarios in conformance.json.`, ""] : [];
  const baseline = run.baselineEntries.length > 0
    ? ["", "### Baseline", "", "| entry | status | reason |", "|---|---|---|", ...run.baselineEntries.map((e) => `| ${e.kind} ${cell(e.name)} | ${e.status} | ${cell(e.reason)} |`)]
    : [];
  return [...head, ...rows, ...baseline, "", ...(explained.length > 0 ? ["### Failures", "", ...explained, ...more] : [])].join("\n");
}

/** The summary of a run that never started: every report says NOT RUN and why, so a CI gate reading them sees the cause. */
export function notRunSummary(cause: string, run: Pick<RunSummary, "broker" | "seed" | "level" | "tags" | "startedAt" | "requireAll" | "command">, profileName: string): RunSummary {
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

/**
 * conformance.json: the run, with `title` beside `headline`: the headline as every report's title
 * gives it, a partial run saying so ("partial run (tags @IDEM-01): 3 of 120 rules reached; on those: …").
 */
export function jsonReport(run: RunSummary): Record<string, unknown> {
  return Object.fromEntries(Object.entries(run).flatMap(([key, value]) => (key === "headline" ? [[key, value], ["title", titleOf(run, (t) => t)]] : [[key, value]])));
}

/**
 * Writes every report. Each is made on its own: one that cannot be made (a fault of the harness's)
 * is written as a note saying so and why, the others are written whole, and the faults are answered
 * so the run can report them as the harness's own.
 */
export function writeReports(dir: string, run: RunSummary, results: readonly ScenarioResult[], baselined: (s: ScenarioResult) => string | undefined): string[] {
  const writers: Array<[string, () => string, (why: string) => string]> = [
    ["junit.xml", () => junitXml(run, results, baselined), (why) => `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="lomi conformance" tests="1" failures="0" errors="1"><testsuite name="lomi conformance" tests="1" failures="0" errors="1"><testcase classname="lomi-conformance" name="lomi-conformance gate"><error message="the harness could not write this report">${why.replace(/[<>&"]/g, " ")}</error></testcase></testsuite></testsuites>\n`],
    ["conformance.json", () => `${JSON.stringify(jsonReport(run), null, 2)}\n`, (why) => `${JSON.stringify({ verdict: run.verdict, headline: run.headline, reportError: why }, null, 2)}\n`],
    ["conformance.md", () => markdownReport(run), (why) => `## Lomi conformance: ${run.headline}\n\nThe harness could not write this report: ${why}\n`],
    ["conformance.svg", () => badgeSvg(run), () => badgeSvg(notRunSummary("report error", run, run.profile.name))],
    ["conformance.html", () => htmlReport(run), (why) => `<!doctype html><meta charset="utf-8"><title>Lomi conformance</title><p>The harness could not write this report: ${why.replace(/[<>&"]/g, " ")}</p>\n`],
  ];
  const faults: string[] = [];
  for (const [file, make, instead] of writers) {
    let text: string;
    try {
      text = make();
    } catch (error) {
      const why = `${file}: ${error instanceof Error ? error.message : String(error)}`;
      faults.push(why);
      text = instead(why);
    }
    writeFileSync(path.join(dir, file), text);
  }
  return faults;
}
