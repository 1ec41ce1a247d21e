import { writeFileSync } from "node:fs";
import path from "node:path";
import { readWorldFile } from "../../simulator/world-file.js";
import { inProcessParts } from "../adapters/index.js";
import { configError } from "../harness-error.js";
import { kitVersion } from "../shards/manifest.js";
import { shardText, type ShardSpec } from "../shards/shard-option.js";
import type { RunParameters } from "../suite/run-parameters.js";
import { checkHistory, failuresOf, unknownsOf } from "../oracles/index.js";
import { explore, type ExploreProgress } from "./explore.js";
import { formatHistory, readHistory } from "../history/format.js";
import { addRegression, exercisedRules, writeExploreReports, type ExploreReport } from "./reports.js";
import { shellWord } from "../text/shell-word.js";
import { eachOnce, oracleHead, pointerLines } from "../report/oracle-findings.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

export interface ExploreCommandOptions {
  seed: number;
  runs: number;
  steps: number;
  timeBudgetS: number;
  parameters: RunParameters;
  brokerName: string;
  /** The options a replay repeats as given: the broker's, and --reports (a replay must not write over reports/). */
  replayArgs: string[];
  replay: { path: string; replayPath: string } | undefined;
  reports: string;
  regressions: string | undefined;
  /** --shard K/N: this part of the campaign only (merge joins the parts). */
  part?: ShardSpec;
  out: (text: string) => void;
  /** Whether `out` is a terminal: progress is then one live line, not a line per run. */
  tty?: boolean;
}

/**
 * A line per run, so a CI log (no terminal) shows the campaign moving rather than minutes of
 * silence; on a terminal the same line is redrawn in place, and the summary replaces it.
 */
function progressPrinter(o: ExploreCommandOptions): (p: ExploreProgress) => void {
  const tty = o.tty ?? false;
  return (p) => {
    // Shrinking tries many cases that no longer violate: a log keeps only each smaller one that still does.
    if (p.shrinking && !p.violated && !tty) return;
    const line = o.replay
      ? `the case replayed: ${p.runSteps} steps${p.violated ? ", violates" : ""}`
      : p.shrinking
        ? `shrinking: run ${p.executions}${p.violated ? `, still violates in ${p.runSteps} steps` : ""}`
        : `run ${p.executions} of ${o.runs}: ${p.runSteps} steps, ${p.steps} in all${p.violated ? "; VIOLATION found, shrinking it" : ""}`;
    o.out(tty ? `\r\x1b[2K${line}${p.violated && !p.shrinking ? "\n" : ""}` : `${line}\n`);
  };
}

/** `lomi-conformance explore`: answers the exit code (0 no violation, 1 a violation). */
export async function exploreCommand(o: ExploreCommandOptions): Promise<number> {
  const mutant = o.parameters.adapter === "in-process" ? o.parameters.mutant : undefined;
  if (o.parameters.adapter === "in-process") await inProcessParts(o.parameters);
  if (o.parameters.adapter === "url") throw configError("explore starts, crashes and restarts the broker and gives each run a fresh simulated Lomi: use the reference broker, --broker-cmd or --broker-image, not --broker-url");
  const broker = o.brokerName;
  // The seed first, so whatever happens next can be replayed.
  const part = o.part && !o.replay ? o.part : undefined;
  o.out(`lomi-conformance explore: seed ${o.seed}, ${o.replay ? "replaying one case" : `${part ? `part ${shardText(part)}: ` : ""}${o.runs} runs of at most ${o.steps} steps, time budget ${o.timeBudgetS} s`}, broker ${broker}\n`);
  const result = await explore({
    onProgress: progressPrinter(o),
    seed: o.seed,
    runs: o.runs,
    steps: o.steps,
    timeBudgetS: o.timeBudgetS,
    run: o.parameters,
    world: readWorldFile(),
    replay: o.replay,
    ...(part ? { part } : {}),
  });
  if (o.tty) o.out("\r\x1b[2K");
  const { violation, ...summary } = result;
  const faults = Object.entries(result.faults).map(([k, n]) => `${k} ${n}`).join(", ");
  o.out(`runs ${result.runs} (+${result.shrinks} shrinking), steps ${result.steps}, ${(result.durationMs / 1000).toFixed(1)} s${result.interrupted ? ", time budget reached" : ""}\nfaults injected: ${faults}\n`);
  const rules = exercisedRules(result.exercised);
  o.out(`rules exercised: ${rules.exercised.length} of the ${rules.exercised.length + rules.idle.length} the oracles judge; not exercised (never a pass): ${rules.idle.join(", ") || "none"}\n`);
  const replay = violation ? ["lomi-conformance explore", "--seed", String(o.seed), "--steps", String(o.steps), "--replay", shellWord(violation.path), "--replay-path", shellWord(violation.replayPath), ...o.replayArgs.map(shellWord)].join(" ") : undefined;
  const report: ExploreReport = { broker, seed: o.seed, steps: o.steps, ...(part ? { part: { ...part, runs: o.runs, kitVersion: kitVersion() } } : {}), result: summary, violation: violation && replay !== undefined ? { invariants: violation.invariants, steps: violation.steps, path: violation.path, replayPath: violation.replayPath, replay } : undefined };
  writeExploreReports(o.reports, report, violation && formatHistory(violation.history));
  if (!violation) {
    o.out(`NO VIOLATION — reports in ${path.relative(process.cwd(), o.reports) || "."}/explore.md\n`);
    return 0;
  }
  o.out(`VIOLATION of ${violation.invariants.map((f) => oracleHead(f.id, f.violations)).join(", ")}\n`);
  for (const f of violation.invariants) for (const v of f.violations) o.out(`  ${eachOnce(v.rules).join(", ")} (${f.id}): ${v.message}\n`);
  for (const line of pointerLines(violation.invariants.flatMap((f) => f.violations))) o.out(`  ${line}\n`);
  o.out(`shrunk to ${violation.steps.length} steps:\n${violation.steps.map((s, i) => `  ${i + 1}. ${s}\n`).join("")}replay: ${replay}\nreports in ${path.relative(process.cwd(), o.reports) || "."}/ (explore.md, explore.json, explore-history.jsonl)\n`);
  if (o.regressions) {
    addRegression(o.regressions, { seed: o.seed, steps: o.steps, path: violation.path, replayPath: violation.replayPath, ...(mutant ? { mutant } : {}), invariants: violation.invariants.map((f) => f.id) });
    o.out(`case added to ${o.regressions}\n`);
  }
  return 1;
}

export interface CheckOptions {
  /** Also write the history with its verdicts to this file: markdown, or HTML for a .html name. */
  report?: string;
  /** Also print a Gherkin skeleton of each violating exchange. */
  scenario?: boolean;
  /** Which sides are judged: by default the broker, and the agents of traffic recorded outside the kit (docs/agents.md). */
  judge?: JudgedSides;
}

export type JudgedSides = "broker" | "agents" | "both";

/** `lomi-conformance check HISTORY.jsonl`: the checker alone; 0 no violation, 1 a violation (the broker's or a judged agent's), 2 a malformed file or a check that failed (its verdict unknown). */
export async function checkCommand(file: string, out: (text: string) => void, options: CheckOptions = {}): Promise<number> {
  const history = readHistory(file);
  const verdicts = checkHistory(history);
  const { historySummary, judgedLine, ruleLines } = await import("../record/check-report.js");
  const agentReport = await import("../agents/report.js");
  const sides = options.judge ?? (agentReport.harnessMade(history) ? "broker" : "both");
  const { agentFailures, agentUnknowns, judgeAgents } = await import("../agents/judge.js");
  const agents = sides === "broker" ? undefined : judgeAgents(history);
  out(`lomi-conformance check: ${file}: ${historySummary(history).join("\n  ")}\n`);
  for (const line of ruleLines(verdicts)) out(`  ${line}\n`);
  for (const line of pointerLines(failuresOf(verdicts).flatMap((f) => f.violations))) out(`  ${line}\n`);
  const failed = sides === "agents" ? [] : failuresOf(verdicts);
  out(`${judgedLine(verdicts)}\n`);
  if (agents) out(agentReport.agentsText(agents));
  else out(`agents: not judged (${options.judge === "broker" ? "--judge broker" : "the history's agents are the kit's own, which break agent rules on purpose to test a broker; --judge agents judges them"})\n`);
  if (options.report !== undefined) {
    const { htmlReport, markdownReport } = await import("../record/check-report.js");
    const page = options.report.endsWith(".html") ? htmlReport(file, history, verdicts, agents) : markdownReport(file, history, verdicts, agents);
    try {
      writeFileSync(options.report, page);
    } catch (error) {
      throw configError(`cannot write the report ${options.report} (${systemCodeOf(error) ?? messageOf(error)})`);
    }
    out(`report: ${options.report}\n`);
  }
  if (options.scenario) out((await import("../record/scenario.js")).scenarioSkeleton(history, verdicts));
  const unknown = [...(sides === "agents" ? [] : unknownsOf(verdicts)), ...(agents ?? []).flatMap((j) => agentUnknowns(j).map((v) => ({ id: `${v.rule} (${j.label})` })))];
  // With agents judged too, the broker's line says it is the broker's; the next line gives both sides.
  const whose = agents ? " (the broker)" : "";
  if (sides !== "agents") out(failed.length === 0 ? `NO VIOLATION${whose}\n` : `VIOLATION of ${failed.map((f) => oracleHead(f.id, f.violations)).join(", ")}${whose}\n`);
  out(`${agentReport.sidesLine(sides === "agents" ? undefined : verdicts, agents)}\n`);
  if (unknown.length > 0) out(`HARNESS ERROR: not judged by ${unknown.map((u) => u.id).join(", ")} (the check failed; the other verdicts stand)\n`);
  const agentFailed = (agents ?? []).some((j) => agentFailures(j).length > 0);
  return failed.length > 0 || agentFailed ? 1 : unknown.length > 0 ? 2 : 0;
}
