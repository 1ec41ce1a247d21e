import { writeFileSync } from "node:fs";
import { configError } from "../harness-error.js";
import { checkHistory, failuresOf, unknownsOf } from "../oracles/index.js";
import { readHistory } from "../history/format.js";
import { oracleHead, pointerLines } from "../report/oracle-findings.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

// lomi-conformance check: a recorded history judged by the oracles (the broker's side) and the agent
// rules (each agent's), with a report of its records marked (check-report.ts).

export interface CheckOptions {
  /** Also write the history with its verdicts to this file: markdown, or HTML for a .html name. */
  report?: string;
  /** Also print a Gherkin skeleton of each violating exchange. */
  scenario?: boolean;
  /** Which sides are judged: by default the broker, and the agents of traffic recorded outside the kit (docs/agents.md). */
  judge?: JudgedSides;
}

export const JUDGED_SIDES = ["broker", "agents", "both"] as const;
export type JudgedSides = (typeof JUDGED_SIDES)[number];

/** --judge read: broker, agents or both (undefined: check's default). */
export function judgeSides(text: string | undefined): JudgedSides | undefined {
  if (text === undefined) return undefined;
  const sides = JUDGED_SIDES.find((s) => s === text);
  if (!sides) throw configError(`--judge takes ${JUDGED_SIDES.join(", ")}, not ${text}`);
  return sides;
}

/** `lomi-conformance check HISTORY.jsonl`: the checker alone; 0 no violation, 1 a violation (the broker's or a judged agent's), 2 a malformed file or a check that failed (its verdict unknown). */
export async function checkCommand(file: string, out: (text: string) => void, options: CheckOptions = {}): Promise<number> {
  const history = readHistory(file);
  const verdicts = checkHistory(history);
  const { historySummary, judgedLine, ruleLines } = await import("./check-report.js");
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
  else
    out(
      `agents: not judged (${options.judge === "broker" ? "--judge broker" : "the history's agents are the kit's own, which break agent rules on purpose to test a broker; --judge agents judges them"})\n`,
    );
  if (options.report !== undefined) {
    const { htmlReport, markdownReport } = await import("./check-report.js");
    const page = options.report.endsWith(".html") ? htmlReport(file, history, verdicts, agents) : markdownReport(file, history, verdicts, agents);
    try {
      writeFileSync(options.report, page);
    } catch (error) {
      throw configError(`cannot write the report ${options.report} (${systemCodeOf(error) ?? messageOf(error)})`);
    }
    out(`report: ${options.report}\n`);
  }
  if (options.scenario) out((await import("../record/scenario.js")).scenarioSkeleton(history, verdicts));
  const unknown = [
    ...(sides === "agents" ? [] : unknownsOf(verdicts)),
    ...(agents ?? []).flatMap((j) => agentUnknowns(j).map((v) => ({ id: `${v.rule} (${j.label})` }))),
  ];
  // With agents judged too, the broker's line says it is the broker's; the next line gives both sides.
  const whose = agents ? " (the broker)" : "";
  if (sides !== "agents")
    out(failed.length === 0 ? `NO VIOLATION${whose}\n` : `VIOLATION of ${failed.map((f) => oracleHead(f.id, f.violations)).join(", ")}${whose}\n`);
  out(`${agentReport.sidesLine(sides === "agents" ? undefined : verdicts, agents)}\n`);
  if (unknown.length > 0) out(`HARNESS ERROR: not judged by ${unknown.map((u) => u.id).join(", ")} (the check failed; the other verdicts stand)\n`);
  const agentFailed = (agents ?? []).some((j) => agentFailures(j).length > 0);
  return failed.length > 0 || agentFailed ? 1 : unknown.length > 0 ? 2 : 0;
}
