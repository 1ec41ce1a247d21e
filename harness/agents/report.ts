import type { History } from "../history/format.js";
import type { OracleVerdict } from "../oracles/index.js";
import { agentFailures, agentUnknowns, type AgentJudgement, type AgentRuleVerdict } from "./judge.js";
import { markdownCell } from "../text/markdown-cell.js";

// How check and record --live tell each agent's verdicts, beside the broker's.

/** Record positions as runs: [17, 18, 19, 23] reads "17–19, 23". */
export function recordRanges(records: readonly number[]): string {
  const sorted = [...new Set(records)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(", ");
}

const recordsWord = (records: readonly number[]) => `record${new Set(records).size === 1 ? "" : "s"} ${recordRanges(records)}`;

/** The records a failing rule's breaches cite, together. */
const citedBy = (v: Extract<AgentRuleVerdict, { verdict: "fail" }>) => v.breaches.flatMap((b) => b.records);

/** One agent in a clause: "agent claude-code 1.2: AGENT-03 violated at records 17–19" or "agent x: no violation". */
export function agentClause(j: AgentJudgement): string {
  const failed = agentFailures(j);
  const unknown = agentUnknowns(j);
  const verdict = failed.length === 0 ? "no violation" : failed.map((v) => `${v.rule} violated at ${recordsWord(citedBy(v))}`).join(", ");
  return `agent ${j.label}: ${verdict}${unknown.length ? ` (not judged by ${unknown.map((v) => v.rule).join(", ")}: the check failed)` : ""}`;
}

/** Both sides in one line: "broker: no violation; agent claude-code 1.2: AGENT-03 violated at records 17–19". */
export function sidesLine(oracles: readonly OracleVerdict[] | undefined, agents: readonly AgentJudgement[] | undefined): string {
  const failed = (oracles ?? []).flatMap((v) => (v.verdict === "fail" ? [v] : []));
  const broker =
    oracles === undefined
      ? "broker: not judged"
      : failed.length === 0
        ? "broker: no violation"
        : `broker: ${failed.map((v) => `${v.id} (${[...new Set(v.violations.flatMap((x) => x.rules))].join(", ")}) violated at ${recordsWord(v.violations.flatMap((x) => x.records))}`).join(", ")}`;
  if (agents === undefined) return `${broker}; agents not judged`;
  return [broker, ...(agents.length === 0 ? ["no agent made a call"] : agents.map(agentClause))].join("; ");
}

/** What a verdict found, after its word: how often the rule's situation arose and what the agent did. */
export function verdictDetail(v: AgentRuleVerdict): string {
  if (v.verdict === "unknown") return `the check failed (the kit's fault): ${v.error.split("\n")[0]}`;
  if (v.verdict === "not exercised") return v.reason;
  const { triggers, kept, broken, undecided } = v.counts;
  const parts = [...(broken ? [`broken ${broken}`] : []), `kept ${kept}`, ...(undecided ? [`${undecided} undecided (the history ends first)`] : [])];
  return `its situation arose ${triggers} time${triggers === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

/** A verdict in a table cell: "pass: kept all 4 times its situation arose". */
export const agentVerdictText = (v: AgentRuleVerdict) => `${v.verdict}: ${verdictDetail(v)}`;

/** Whether check judges the agents of this history: traffic recorded outside the kit, not a history the harness made with its own agents. */
export const harnessMade = (history: History) => history.header?.ledger === true;

/** check's section on the agents: each agent, each rule's verdict with its trigger count, each breach with its records. */
export function agentsText(judgements: readonly AgentJudgement[]): string {
  const out = [`agents: ${judgements.length} judged from their traffic by the agent rules (docs/agents.md)`];
  for (const j of judgements) {
    out.push(`  ${agentClause(j)} (${j.calls} calls)`);
    for (const v of j.verdicts) {
      out.push(`    ${v.verdict.toUpperCase()} ${v.rule} (${v.level}): ${verdictDetail(v)}`);
      if (v.verdict === "fail") for (const b of v.breaches) out.push(`        ${b.message} [${recordsWord(b.records)}]`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** Which agent rules cite each record position, as "AGENT-03 (claude-code 1.2)". */
export function agentCitations(judgements: readonly AgentJudgement[]): Map<number, string[]> {
  const cited = new Map<number, string[]>();
  for (const j of judgements)
    for (const v of agentFailures(j))
      for (const b of v.breaches) for (const i of b.records) cited.set(i, [...new Set([...(cited.get(i) ?? []), `${v.rule} (${j.label})`])]);
  return cited;
}

const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The report page's agents section, in markdown. */
export function agentsMarkdown(judgements: readonly AgentJudgement[]): string[] {
  const out = [
    "## Agents",
    "",
    "Each agent (clientInfo name and version) judged by the agent rules (docs/agents.md); records a breach cites are marked 🟠 below.",
    "",
  ];
  for (const j of judgements) {
    out.push(
      `### ${markdownCell(agentClause(j))}`,
      "",
      "| rule | level | verdict |",
      "|---|---|---|",
      ...j.verdicts.map((v) => `| ${v.rule} | ${v.level} | ${markdownCell(agentVerdictText(v))} |`),
      "",
    );
    for (const v of agentFailures(j))
      for (const b of v.breaches) out.push(`- **${v.rule}**: ${markdownCell(b.message)} — records ${b.records.map((i) => `[#${i}](#r${i})`).join(", ")}`);
    out.push("");
  }
  return out;
}

/** The same section as HTML. */
export function agentsHtml(judgements: readonly AgentJudgement[]): string {
  return `<h2>Agents</h2><p>Each agent (clientInfo name and version) judged by the agent rules (docs/agents.md); records a breach cites are highlighted orange.</p>${judgements
    .map(
      (j) =>
        `<h3>${html(agentClause(j))}</h3><table><tr><th>rule</th><th>level</th><th>verdict</th></tr>${j.verdicts.map((v) => `<tr${v.verdict === "fail" ? ' class="agent-cited"' : ""}><td>${v.rule}</td><td>${v.level}</td><td>${html(agentVerdictText(v))}</td></tr>`).join("")}</table><ul>${agentFailures(
          j,
        )
          .flatMap((v) =>
            v.breaches.map((b) => `<li><b>${v.rule}</b>: ${html(b.message)} — records ${b.records.map((i) => `<a href="#r${i}">#${i}</a>`).join(", ")}</li>`),
          )
          .join("")}</ul>`,
    )
    .join("")}`;
}

/** `record --live`: each breach as a line, those decided by the history's end only once it has ended. */
export function agentLiveLines(judgements: readonly AgentJudgement[], ended: boolean): string[] {
  return judgements.flatMap((j) =>
    agentFailures(j).flatMap((v) =>
      v.breaches
        .filter((b) => ended || !b.atEnd)
        .map((b) => `lomi-conformance record: AGENT VIOLATION ${v.rule} by ${j.label} [records ${b.records.join(", ")}]: ${b.message}`),
    ),
  );
}
