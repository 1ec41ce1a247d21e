import { loadRules } from "../rules.js";
import { coverageSummary, sourceCoverage } from "../source-coverage.js";
import { boundedText } from "./bounded-json.js";
import { ledgerText, recordsText } from "./failure-context.js";
import type { RuleReport } from "./rule-verdicts.js";
import { titleOf, listedRules, ranOf, shardTimesText, type RunSummary } from "./write-reports.js";

const COLOUR: Record<RuleReport["verdict"], string> = {
  pass: "#1a7f37",
  fail: "#cf222e",
  baselined: "#bf8700",
  "not-applicable": "#6e7781",
  uncovered: "#8250df",
  "not-selected": "#d0d7de",
};

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const pre = (value: unknown) => `<pre>${escape(boundedText(value, 20_000, 2))}</pre>`;

/** A rule's verdict as the page says it, with how much of the rule a partial run reached. */
function verdictText(r: RuleReport, run: RunSummary): string {
  const { ran, inSuite } = ranOf(r, run);
  return ran < inSuite && r.verdict !== "not-selected" ? `${r.verdict} (${ran} of ${inSuite} scenarios ran)` : r.verdict;
}

function failureBlock(f: NonNullable<RuleReport["scenarios"][number]["failure"]>): string {
  return [
    `<dl class="failure">`,
    `<dt>Failed at</dt><dd><code>${escape(f.step ?? "?")}</code></dd>`,
    f.lost ? `<dt>Not shown</dt><dd>${escape(f.lost)}</dd>` : "",
    `<dt>Expected / found</dt><dd>${pre(f.message)}</dd>`,
    f.request ? `<dt>Request (${escape(f.request.agent)}): <code>${escape(f.request.tool)}</code></dt><dd>${pre(f.request.args)}</dd>` : "",
    f.reply !== undefined ? `<dt>Reply</dt><dd>${pre(f.reply)}</dd>` : "",
    f.ledger.length > 0 ? `<dt>Lomi's ledger</dt><dd>${pre(ledgerText(f.ledger))}</dd>` : "",
    f.brokerLog ? `<dt>Broker log (end)</dt><dd>${pre(f.brokerLog.slice(-2000))}</dd>` : "",
    ...(f.oracles ?? []).map(
      (o) =>
        `<dt>Oracle <code>${escape(o.id)}</code> (${escape(o.rules.join(", "))}): ${escape(o.title)}</dt><dd>${o.violations
          .map((v) => `<p>${escape(v.message)}</p>${v.records.length > 0 ? pre(recordsText(v.records)) : ""}`)
          .join("")}</dd>`,
    ),
    `</dl>`,
  ].join("");
}

function ruleSection(r: RuleReport, run: RunSummary): string {
  const scenarios = r.scenarios
    .map((s) => `<li><span class="dot" style="background:${COLOUR[s.verdict === "baselined" ? "baselined" : s.verdict]}"></span>${escape(s.name)} <small>${escape(s.uri)}:${s.line ?? "?"} · ${s.verdict}</small>${s.reason && !s.failure ? `<div class="reason">${escape(s.reason)}</div>` : ""}${s.failure ? failureBlock(s.failure) : ""}</li>`)
    .join("");
  return [
    // A failed rule is open from the start: what failed is what a reader came for.
    `<details id="${r.id}" class="rule"${r.verdict === "fail" ? " open" : ""}><summary><span class="chip" style="background:${COLOUR[r.verdict]}">${r.id}</span> <b>${escape(verdictText(r, run))}</b> · ${r.level} · ${escape(r.title)}</summary>`,
    `<blockquote>${escape(r.source)}</blockquote>`,
    r.decision ? `<p><b>Decision:</b> ${escape(r.decision)}</p>` : "",
    r.reason ? `<p class="reason">${escape(r.reason)}</p>` : "",
    r.scenarios.length > 0 ? `<ul class="scenarios">${scenarios}</ul>` : "<p>No scenario of this rule ran.</p>",
    `</details>`,
  ].join("");
}

/** The failures by likely root cause, first on the page: a reader starts at the cause, not at the first family's rules. */
function causes(run: RunSummary): string {
  if (run.failureGroups.length === 0) return "";
  const items = run.failureGroups.map((g) => {
    const rules = g.rules.map((id) => `<a class="chip" style="background:${COLOUR.fail}" href="#${id}">${id}</a>`).join(" ");
    const scenarios = g.scenarios.map((s) => `<li>${escape(s.name)} <small>${escape(s.uri)}:${s.line ?? "?"}</small></li>`).join("");
    return `<li><b>${g.scenarios.length} scenario(s)</b> ${rules}<br>at <code>${escape(g.step)}</code>: ${escape(g.cause)}<details><summary>scenarios</summary><ul>${scenarios}</ul></details></li>`;
  });
  return `<section class="causes"><h2>Likely root causes</h2><ol>${items.join("")}</ol></section>`;
}

/** The source, sentence by sentence, with the rules that judge each and their verdicts in this run: what of the source this run has shown. */
function sourceSection(run: RunSummary): string {
  // A run that never started counted no scenario: the suite's own counts are then read from the features.
  const coverage = sourceCoverage({ run, file: "this run" }, run.verdict === "not-run" ? undefined : run.scenariosInSuite);
  const rows = coverage.rows.map((row) => {
    const rules = row.judged.map((j) => `<a class="chip" style="background:${COLOUR[(j.verdict ?? "not-selected") as RuleReport["verdict"]] ?? COLOUR["not-selected"]}" href="#${j.id}" title="${j.level} · ${j.scenarios} scenario(s) · ${escape(j.verdict ?? "")}">${j.id}</a>`).join(" ");
    const note = row.how === "informative" || row.how === "covered" ? `<div class="reason">${escape(row.why ?? "")}</div>` : row.how === "unmapped" ? `<div class="reason">No rule judges this sentence.</div>` : "";
    return `<tr><td>${escape(row.sentence.replace(/\t/g, " — "))}${note}</td><td>${row.how === "informative" ? "informative" : rules || "<b>uncovered</b>"}</td></tr>`;
  });
  return `<details class="rule"><summary><b>The source, sentence by sentence</b> · ${escape(coverageSummary(coverage))}</summary><table class="source">${rows.join("")}</table></details>`;
}

/**
 * The per-rule page: a grid of rule families × rules coloured by verdict, each rule opening to its
 * source sentence, decision, scenarios and, for a failure, the step, request, reply and ledger.
 * Self-contained (no network): styles inline, a few lines of script to open the rule a cell names.
 */
export function htmlReport(run: RunSummary): string {
  const families = loadRules().families;
  const byFamily = new Map<string, RuleReport[]>();
  for (const r of run.rules) byFamily.set(r.family, [...(byFamily.get(r.family) ?? []), r]);
  const grid = [...byFamily]
    .map(([family, rules]) => {
      const cells = rules.map((r) => `<a class="cell" href="#${r.id}" title="${r.id}: ${escape(verdictText(r, run))} — ${escape(r.title)}" style="background:${COLOUR[r.verdict]}">${r.id.slice(family.length + 1)}<small>${r.level[0]}</small></a>`).join("");
      return `<tr><th title="${escape(families[family] ?? "")}">${family}<small>${escape(families[family] ?? "")}</small></th><td>${cells}</td></tr>`;
    })
    .join("");
  const listed = new Set(listedRules(run));
  const sections = [...byFamily]
    .map(([family, all]) => [family, all.filter((r) => listed.has(r))] as const)
    .filter(([, rules]) => rules.length > 0)
    .map(([family, rules]) => `<h2>${family} · ${escape(families[family] ?? "")}</h2>${rules.map((r) => ruleSection(r, run)).join("")}`)
    .join("");
  const counts = (Object.keys(COLOUR) as RuleReport["verdict"][])
    .map((v) => [v, run.rules.filter((r) => r.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `<span class="legend"><span class="dot" style="background:${COLOUR[v]}"></span>${n} ${v}</span>`)
    .join(" ");
  const identity = run.broker.serverInfo ? ` (${escape(run.broker.serverInfo.name)} ${escape(run.broker.serverInfo.version)})` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lomi conformance: ${escape(titleOf(run, (t) => t))}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1f2328;max-width:1200px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
.meta{color:#57606a;margin-bottom:12px} table.grid{border-collapse:collapse;margin:12px 0}
.grid th{text-align:left;padding:4px 10px 4px 0;font-weight:600;white-space:nowrap;vertical-align:top}
.grid th small{display:block;font-weight:400;color:#57606a;font-size:11px}
.cell{display:inline-block;width:34px;height:34px;margin:2px;border-radius:4px;color:#fff;text-align:center;font:600 12px/22px monospace;text-decoration:none}
.cell small{display:block;font-size:9px;line-height:8px;opacity:.85}
.chip{color:#fff;border-radius:4px;padding:1px 6px;font:600 12px monospace}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}
.legend{margin-right:12px} details.rule{border:1px solid #d0d7de;border-radius:6px;margin:6px 0;padding:6px 10px}
details.rule:target{outline:3px solid #0969da} summary{cursor:pointer}
blockquote{margin:8px 0;padding-left:10px;border-left:3px solid #d0d7de;color:#57606a}
pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-word}
table.source td{border-top:1px solid #d0d7de;padding:4px 8px;vertical-align:top} .reason{color:#57606a} dl.failure dt{font-weight:600;margin-top:6px} dl.failure dd{margin-left:12px}
</style></head><body>
<h1>Lomi conformance: ${titleOf(run, (t) => `<code>${escape(t)}</code>`)}</h1>
<div class="meta">Broker: ${escape(run.broker.adapter)}${identity} · seed ${run.seed} · level ${run.level} · ${(run.durationMs / 1000).toFixed(1)} s · ${run.scenarios.pass} of ${run.scenarios.total} scenarios passed${run.shards ? `<br>${escape(shardTimesText(run.shards))}` : ""}</div>
<div>${counts}</div>
${causes(run)}
<table class="grid">${grid}</table>
${sections}
<h2>Source coverage</h2>
${sourceSection(run)}
<script>
// A cell links to its rule: open it, so the link lands on its content.
const open = () => { const d = document.getElementById(location.hash.slice(1)); if (d && d.tagName === "DETAILS") d.open = true; };
addEventListener("hashchange", open); open();
</script>
</body></html>
`;
}
