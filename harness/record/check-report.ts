import { z } from "zod";
import type { History, HistoryRecord } from "../history/format.js";
import { looseEnvelope } from "../history/replies.js";
import type { OracleVerdict } from "../oracles/index.js";
import type { AgentJudgement } from "../agents/judge.js";
import { agentCitations, agentsHtml, agentsMarkdown, sidesLine } from "../agents/report.js";

/** What a history holds, in a sentence: what `check` could judge it by. */
export function historySummary(history: History): string[] {
  const calls = history.records.flatMap((r) => (r.type === "call" ? [r] : []));
  const agents = [...new Set(calls.map((c) => c.agent))];
  const connections = new Set(calls.map((c) => c.connection)).size;
  const crashes = history.records.filter((r) => r.type === "fault" && r.kind === "broker-crash").length;
  const lost = calls.filter((c) => c.reply.status === "lost").length;
  const lines = [
    `${calls.length} calls from ${agents.length} agent(s) (${agents.join(", ")}) over ${connections} connection(s), ${crashes} broker crash(es), ${lost} call(s) with no reply; ${history.ledger === undefined ? "no effect ledger" : `${history.ledger.length} ledger entries`}`,
  ];
  if (history.header?.clock === "recorder") lines.push("times are the recorder's clock, not Lomi's: a retry epoch's expiry is not judged (its connection and broker instance are)");
  return lines;
}

/** Judged and not, counted, with why the rest was not: the verdict a reader looks for first. */
export function judgedLine(verdicts: readonly OracleVerdict[]): string {
  const judged = verdicts.filter((v) => v.verdict === "pass" || v.verdict === "fail");
  const failed = judged.filter((v) => v.verdict === "fail");
  const reasons = [...new Set(verdicts.flatMap((v) => (v.verdict === "not-applicable" ? [v.reason] : v.verdict === "unknown" ? [`${v.id} failed (the harness's fault)`] : [])))];
  return `judged by ${judged.length} oracles (${failed.length} found a violation); not judged by ${verdicts.length - judged.length}${reasons.length ? `: ${reasons.join("; ")}` : ""}`;
}

/** Which oracles cite each record position. */
function citations(verdicts: readonly OracleVerdict[]): Map<number, string[]> {
  const cited = new Map<number, string[]>();
  for (const v of verdicts) {
    if (v.verdict !== "fail") continue;
    for (const x of v.violations) for (const i of x.records) cited.set(i, [...new Set([...(cited.get(i) ?? []), v.id])]);
  }
  return cited;
}

/** The receipt an ok reply's data.operation holds, read loosely: a report row names its operation and state. */
const receiptOf = z.object({ operationId: z.string(), state: z.unknown() });

const short = (value: unknown, max = 140) => {
  const text = JSON.stringify(value) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** One record as the report's row: who, what was asked, what came back. */
function row(record: HistoryRecord): { who: string; what: string; answer: string } | undefined {
  if (record.type === "call") {
    const env = record.reply.status === "answered" ? looseEnvelope(record.reply.structuredContent) : undefined;
    const op = env?.status === "ok" ? receiptOf.safeParse(env.data.operation).data : undefined;
    const answer =
      record.reply.status === "lost"
        ? `no reply: ${record.reply.reason}`
        : env === undefined
          ? `not an envelope: ${short(record.reply.structuredContent, 80)}`
          : env.status === "error"
            ? `error ${env.code}${record.reply.isError === true ? "" : ` (isError ${String(record.reply.isError)})`}`
            : `ok${op?.operationId ? ` ${op.operationId} ${op.state}` : ""}${record.reply.isError === true ? " (isError true)" : ""}`;
    return { who: `${record.agent} @ ${record.connection}`, what: `${record.tool} ${short(record.args)}`, answer };
  }
  if (record.type === "fault") return { who: "—", what: `fault: ${record.kind} ${short(record.detail)}`, answer: "" };
  return undefined;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function verdictText(v: OracleVerdict): string {
  if (v.verdict === "unknown") return `unknown: the oracle failed (the harness's fault): ${v.error.split("\n")[0]}`;
  return v.verdict === "pass" ? "pass" : v.verdict === "fail" ? `FAIL (${v.violations.length})` : `not applicable: ${v.reason}`;
}

/** The history as a markdown page: the verdicts, each violation, and every record, the cited ones marked. */
export function markdownReport(file: string, history: History, verdicts: readonly OracleVerdict[], agents?: readonly AgentJudgement[]): string {
  const cited = citations(verdicts);
  const agentCited = agentCitations(agents ?? []);
  const failed = verdicts.filter((v) => v.verdict === "fail");
  const out = [`# lomi-conformance check: ${file}`, "", ...historySummary(history).map((l) => `- ${l}`), `- ${judgedLine(verdicts)}`, "", `**${failed.length === 0 ? "NO VIOLATION" : `VIOLATION of ${failed.map((f) => f.id).join(", ")}`}**`, "", ...(agents ? [sidesLine(verdicts, agents), ""] : [])];
  out.push("## Verdicts", "", "| oracle | rules | verdict |", "|---|---|---|", ...verdicts.map((v) => `| ${v.id} | ${v.rules.join(", ")} | ${cell(verdictText(v))} |`), "");
  if (failed.length > 0) {
    out.push("## Violations", "");
    for (const v of failed) for (const x of v.violations) out.push(`- **${v.id}** (${x.rules.join(", ")}): ${x.message} — records ${x.records.map((i) => `[#${i}](#r${i})`).join(", ")}`);
    out.push("");
  }
  if (agents) out.push(...agentsMarkdown(agents));
  out.push("## The history", "", `Records marked ❌ are cited by a violation${agents ? " of the broker's, 🟠 by an agent's breach of an agent rule" : ""}.`, "", "| # | agent @ connection | call | reply | cited by |", "|---|---|---|---|---|");
  history.records.forEach((r, i) => {
    const shown = row(r);
    if (!shown) return;
    const by = cited.get(i);
    const byAgent = agentCited.get(i);
    const mark = by ? `❌ <a id="r${i}"></a>**${i}**` : byAgent ? `🟠 <a id="r${i}"></a>**${i}**` : `<a id="r${i}"></a>${i}`;
    out.push(`| ${mark} | ${cell(shown.who)} | \`${cell(shown.what)}\` | ${by || byAgent ? `**${cell(shown.answer)}**` : cell(shown.answer)} | ${[...(by ?? []), ...(byAgent ?? [])].join(", ")} |`);
  });
  return `${out.join("\n")}\n`;
}

/** The same page as self-contained HTML, the cited records highlighted. */
export function htmlReport(file: string, history: History, verdicts: readonly OracleVerdict[], agents?: readonly AgentJudgement[]): string {
  const cited = citations(verdicts);
  const agentCited = agentCitations(agents ?? []);
  const failed = verdicts.filter((v) => v.verdict === "fail");
  const rows = history.records.flatMap((r, i) => {
    const shown = row(r);
    if (!shown) return [];
    const by = cited.get(i);
    const byAgent = agentCited.get(i);
    return [`<tr id="r${i}"${by ? ' class="cited"' : byAgent ? ' class="agent-cited"' : ""}><td>${i}</td><td>${html(shown.who)}</td><td><code>${html(shown.what)}</code></td><td>${html(shown.answer)}</td><td>${html([...(by ?? []), ...(byAgent ?? [])].join(", "))}</td></tr>`];
  });
  const violations = failed.flatMap((v) => v.violations.map((x) => `<li><b>${html(v.id)}</b> (${html(x.rules.join(", "))}): ${html(x.message)} — records ${x.records.map((i) => `<a href="#r${i}">#${i}</a>`).join(", ")}</li>`));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lomi-conformance check: ${html(file)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top;text-align:left}tr.cited{background:#fdd}tr.agent-cited{background:#fed8a8}code{font-size:12px}.verdict{font-size:1.2em;font-weight:bold}</style></head>
<body><h1>lomi-conformance check: ${html(file)}</h1>
<ul>${[...historySummary(history), judgedLine(verdicts)].map((l) => `<li>${html(l)}</li>`).join("")}</ul>
<p class="verdict">${failed.length === 0 ? "NO VIOLATION" : `VIOLATION of ${html(failed.map((f) => f.id).join(", "))}`}</p>${agents ? `<p>${html(sidesLine(verdicts, agents))}</p>` : ""}
<h2>Verdicts</h2><table><tr><th>oracle</th><th>rules</th><th>verdict</th></tr>${verdicts.map((v) => `<tr${v.verdict === "fail" ? ' class="cited"' : ""}><td>${html(v.id)}</td><td>${html(v.rules.join(", "))}</td><td>${html(verdictText(v))}</td></tr>`).join("")}</table>
${violations.length ? `<h2>Violations</h2><ul>${violations.join("")}</ul>` : ""}
${agents ? agentsHtml(agents) : ""}
<h2>The history</h2><p>Highlighted records are cited by a violation${agents ? " (orange: an agent's breach of an agent rule)" : ""}.</p>
<table><tr><th>#</th><th>agent @ connection</th><th>call</th><th>reply</th><th>cited by</th></tr>${rows.join("")}</table>
</body></html>
`;
}
