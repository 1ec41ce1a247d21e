import { z } from "zod";
import type { History, HistoryRecord } from "../history/format.js";
import { looseEnvelope } from "../history/replies.js";
import { failuresOf, rulesFromOracles, unknownsOf, type OracleVerdict, type RuleFromOracles, type RuleJudgement } from "../oracles/index.js";
import { chip, BASE_STYLE, escapeHtml, VERDICT_COLOUR } from "../report/html-page.js";
import { brokenRules, eachOnce, oracleHead, pointerLines } from "../report/oracle-findings.js";
import { boundedJson } from "../text/bounded-json.js";
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
  if (history.header?.clock === "recorder")
    lines.push("times are the recorder's clock, not Lomi's: a retry epoch's expiry is not judged (its connection and broker instance are)");
  return lines;
}

/**
 * Per rule, what the history showed, as a reader wants it: the rules with a finding first, then those
 * that passed with how many times each was judged, then those whose situation never arose (never a
 * pass), then those no oracle could judge here, with why.
 */
export function judgedLine(verdicts: readonly OracleVerdict[]): string {
  const rules = rulesFromOracles(verdicts);
  const of = (v: RuleJudgement) => rules.filter((r) => r.verdict === v);
  const reasons = [...new Set([...of("not-judged"), ...of("unknown")].flatMap((r) => r.reason ?? []))];
  return [
    `${of("fail").length} rule(s) fail, ${of("pass").length} pass (their situation arose and held), ${of("not-exercised").length} not exercised (their situation never arose)`,
    ...(of("not-judged").length + of("unknown").length > 0
      ? [`${of("not-judged").length + of("unknown").length} not judged here${reasons.length ? `: ${reasons.join("; ")}` : ""}`]
      : []),
  ].join("; ");
}

/** One line per rule: its verdict, how many times it was judged, and the findings that break it. */
export function ruleLines(verdicts: readonly OracleVerdict[]): string[] {
  const order: Record<RuleJudgement, number> = { fail: 0, unknown: 1, pass: 2, "not-exercised": 3, "not-judged": 4 };
  return rulesFromOracles(verdicts)
    .sort((a, b) => order[a.verdict] - order[b.verdict])
    .flatMap((r) => {
      if (r.verdict === "fail")
        return [`FAIL ${r.id}`, ...r.violations.map((x) => `    ${x.message}${x.records.length ? ` [records ${x.records.join(", ")}]` : ""} (${x.oracle})`)];
      if (r.verdict === "pass") return [`pass ${r.id} (judged ${r.judged} time${r.judged === 1 ? "" : "s"})`];
      if (r.verdict === "not-exercised") return [`not exercised ${r.id}: its situation never arose in this history`];
      return [`${r.verdict === "unknown" ? "unknown" : "not judged"} ${r.id}: ${r.reason ?? ""}`];
    });
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

/** One record as the report's row: who, which tool with its arguments whole (as recorded), what came back. */
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
    return { who: `${record.agent} @ ${record.connection}`, what: `${record.tool} ${boundedJson(record.args, 20_000)}`, answer };
  }
  if (record.type === "fault") return { who: "—", what: `fault: ${record.kind} ${boundedJson(record.detail, 20_000)}`, answer: "" };
  return undefined;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A rule's verdict over the history, in words: a pass says how many times it was judged. */
function ruleVerdictText(r: RuleFromOracles): string {
  if (r.verdict === "fail") return `FAIL (${r.violations.length})`;
  if (r.verdict === "pass") return `pass (judged ${r.judged})`;
  if (r.verdict === "not-exercised") return "not exercised: its situation never arose";
  return `${r.verdict === "unknown" ? "unknown" : "not judged"}: ${r.reason ?? ""}`;
}

/** An oracle's verdict over the history: what its findings break, or why it judged nothing. */
function verdictText(v: OracleVerdict): string {
  if (v.verdict === "unknown") return `unknown: the oracle failed (the harness's fault): ${v.error.split("\n")[0]}`;
  return v.verdict === "pass"
    ? "pass"
    : v.verdict === "fail"
      ? `FAIL (${v.violations.length}): ${brokenRules(v.violations).join(", ")}`
      : `not applicable: ${v.reason}`;
}

/** The verdict line: what the findings break, oracle by oracle, or that nothing did. */
const verdictLine = (failed: ReadonlyArray<Extract<OracleVerdict, { verdict: "fail" }>>) =>
  failed.length === 0 ? "NO VIOLATION" : `VIOLATION of ${failed.map((f) => oracleHead(f.id, f.violations)).join(", ")}`;

/** The history as a markdown page: the verdicts, each violation, and every record, the cited ones marked. */
export function markdownReport(file: string, history: History, verdicts: readonly OracleVerdict[], agents?: readonly AgentJudgement[]): string {
  const cited = citations(verdicts);
  const agentCited = agentCitations(agents ?? []);
  const failed = failuresOf(verdicts);
  const out = [
    `# lomi-conformance check: ${file}`,
    "",
    ...historySummary(history).map((l) => `- ${l}`),
    `- ${judgedLine(verdicts)}`,
    "",
    `**${verdictLine(failed)}**`,
    "",
    ...(agents ? [sidesLine(verdicts, agents), ""] : []),
  ];
  out.push(
    "## Verdicts by rule",
    "",
    "| rule | verdict | judged by |",
    "|---|---|---|",
    ...rulesFromOracles(verdicts).map((r) => `| ${r.id} | ${cell(ruleVerdictText(r))} | ${r.oracles.join(", ")} |`),
    "",
  );
  if (failed.length > 0) {
    out.push("## Violations", "");
    for (const v of failed)
      for (const x of v.violations)
        out.push(`- ${eachOnce(x.rules).join(", ")} (**${v.id}**): ${x.message} — records ${x.records.map((i) => `[#${i}](#r${i})`).join(", ")}`);
    out.push(...pointerLines(failed.flatMap((v) => v.violations)).map((l) => `- ${l}`), "");
  }
  out.push(
    "## Oracles",
    "",
    "| oracle | verdict | rules it can judge |",
    "|---|---|---|",
    ...verdicts.map((v) => `| ${v.id} | ${cell(verdictText(v))} | ${eachOnce(v.rules).join(", ")} |`),
    "",
  );
  if (agents) out.push(...agentsMarkdown(agents));
  out.push(
    "## The history",
    "",
    `Records marked ❌ are cited by a violation${agents ? " of the broker's, 🟠 by an agent's breach of an agent rule" : ""}.`,
    "",
    "| # | agent @ connection | call | reply | cited by |",
    "|---|---|---|---|---|",
  );
  history.records.forEach((r, i) => {
    const shown = row(r);
    if (!shown) return;
    const by = cited.get(i);
    const byAgent = agentCited.get(i);
    const mark = by ? `❌ <a id="r${i}"></a>**${i}**` : byAgent ? `🟠 <a id="r${i}"></a>**${i}**` : `<a id="r${i}"></a>${i}`;
    out.push(
      `| ${mark} | ${cell(shown.who)} | \`${cell(shown.what)}\` | ${by || byAgent ? `**${cell(shown.answer)}**` : cell(shown.answer)} | ${[...(by ?? []), ...(byAgent ?? [])].join(", ")} |`,
    );
  });
  return `${out.join("\n")}\n`;
}

const html = escapeHtml;
const failChip = (id: string) => chip(id, VERDICT_COLOUR.fail);

/** The same page as self-contained HTML, styled as conformance.html: the verdict first, each violation headed by the rules it breaks, the cited records highlighted. */
export function htmlReport(file: string, history: History, verdicts: readonly OracleVerdict[], agents?: readonly AgentJudgement[]): string {
  const cited = citations(verdicts);
  const agentCited = agentCitations(agents ?? []);
  const failed = failuresOf(verdicts);
  const rows = history.records.flatMap((r, i) => {
    const shown = row(r);
    if (!shown) return [];
    const by = cited.get(i);
    const byAgent = agentCited.get(i);
    return [
      `<tr id="r${i}"${by ? ' class="cited"' : byAgent ? ' class="agent-cited"' : ""}><td>${i}</td><td>${html(shown.who)}</td><td><code>${html(shown.what)}</code></td><td>${html(shown.answer)}</td><td>${html([...(by ?? []), ...(byAgent ?? [])].join(", "))}</td></tr>`,
    ];
  });
  const violations = failed.flatMap((v) =>
    v.violations.map(
      (x) =>
        `<li>${eachOnce(x.rules).map(failChip).join(" ")} <b>${html(v.id)}</b>: ${html(x.message)} — records ${x.records.map((i) => `<a href="#r${i}">#${i}</a>`).join(", ")}</li>`,
    ),
  );
  const pointers = pointerLines(failed.flatMap((v) => v.violations)).map((l) => `<div class="pointer">${html(l)}</div>`);
  const colour = failed.length > 0 ? VERDICT_COLOUR.fail : unknownsOf(verdicts).length > 0 ? VERDICT_COLOUR["not-applicable"] : VERDICT_COLOUR.pass;
  const verdictRows = verdicts.map((v) => {
    const c = v.verdict === "fail" ? VERDICT_COLOUR.fail : v.verdict === "pass" ? VERDICT_COLOUR.pass : VERDICT_COLOUR["not-applicable"];
    return `<tr${v.verdict === "fail" ? ' class="cited"' : ""}><td><span class="dot" style="background:${c}"></span>${html(v.id)}<div class="reason">${html(v.title)}</div></td><td>${html(verdictText(v))}</td><td class="reason">${html(eachOnce(v.rules).join(", "))}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lomi-conformance check: ${html(file)}</title>
<style>
${BASE_STYLE}
table{border-collapse:collapse;margin:8px 0} td,th{border-top:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}
tr.cited{background:#fff0ee} tr.agent-cited{background:#fed8a8} td code{white-space:pre-wrap;word-break:break-word;font-size:12px}
ol.violations li{margin:6px 0}
</style></head>
<body><h1>lomi-conformance check: <code>${html(file)}</code></h1>
<div class="banner" style="background:${colour}">${failed.length > 0 ? "✗" : "✓"} ${html(verdictLine(failed))}</div>${agents ? `<p>${html(sidesLine(verdicts, agents))}</p>` : ""}
<div class="meta">${[...historySummary(history), judgedLine(verdicts)].map(html).join("<br>")}</div>
${violations.length ? `<h2>Violations</h2><ol class="violations">${violations.join("")}</ol>${pointers.join("")}` : ""}
<h2>Verdicts by rule</h2><table><tr><th>rule</th><th>verdict</th><th>judged by</th></tr>${rulesFromOracles(verdicts)
    .map(
      (r) =>
        `<tr${r.verdict === "fail" ? ' class="cited"' : ""}><td>${html(r.id)}</td><td>${html(ruleVerdictText(r))}</td><td class="reason">${html(r.oracles.join(", "))}</td></tr>`,
    )
    .join("")}</table>
<h2>Oracles</h2><table><tr><th>oracle</th><th>verdict</th><th>rules it can judge</th></tr>${verdictRows.join("")}</table>
${agents ? agentsHtml(agents) : ""}
<h2>The history</h2><p class="reason">Highlighted records are cited by a violation${agents ? " (orange: an agent's breach of an agent rule)" : ""}; each call's arguments as recorded.</p>
<table><tr><th>#</th><th>agent @ connection</th><th>call</th><th>reply</th><th>cited by</th></tr>${rows.join("")}</table>
</body></html>
`;
}
