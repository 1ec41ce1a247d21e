import { loadRules } from "../rules.js";
import { coverageSummary, sourceCoverage } from "../authoring/source-coverage.js";
import { boundedText } from "../text/bounded-json.js";
import { detailOf, folded, ledgerText, recordsText, stepGlyph, summaryOf } from "./failure-context.js";
import type { RuleReport } from "./rule-verdicts.js";
import { titleOf, listedRules, notRunBanner, ranOf, shardTimesText, type RunSummary } from "./run-summary.js";
import { BASE_STYLE, escapeHtml, VERDICT_COLOUR } from "./html-page.js";
import { provenanceText } from "./provenance.js";
import { passEveryText } from "./repetitions.js";

const COLOUR: Record<RuleReport["verdict"], string> = VERDICT_COLOUR;
const escape = escapeHtml;
const pre = (value: unknown) => `<pre>${escape(boundedText(value, 20_000, 2))}</pre>`;

/** A rule's verdict as the page says it, with how much of the rule a partial run reached, and its pass^N under --repeat. */
function verdictText(r: RuleReport, run: RunSummary): string {
  const { ran, inSuite } = ranOf(r, run);
  const verdict = ran < inSuite && r.verdict !== "not-selected" ? `${r.verdict} (${ran} of ${inSuite} scenarios ran)` : r.verdict;
  return r.repeat ? `${verdict}, ${passEveryText(r.repeat)}` : verdict;
}

/** A step's row class: its colour on the page beside its glyph. */
const stepClass = (status: string) => (status === "PASSED" ? "ok" : status === "SKIPPED" ? "skip" : "bad");

/** What the failed check found: its summary line, then what it looked at, folded when long (a line per tool of a tools/list). */
function expectedFound(message: string): string {
  const detail = detailOf(message);
  const below =
    detail === ""
      ? ""
      : folded(detail)
        ? `<details class="detail"><summary>the detail (${detail.split("\n").length} lines)</summary>${pre(detail)}</details>`
        : pre(detail);
  return `<pre class="found">${escape(boundedText(summaryOf(message), 20_000))}</pre>${below}`;
}

function failureBlock(f: NonNullable<RuleReport["scenarios"][number]["failure"]>): string {
  return [
    `<dl class="failure">`,
    `<dt>Failed at</dt><dd><code>${escape(f.step ?? "?")}</code></dd>`,
    f.lost ? `<dt>Not shown</dt><dd>${escape(f.lost)}</dd>` : "",
    f.steps && f.steps.length > 0
      ? `<dt>Steps</dt><dd><ol class="steps">${f.steps.map((s) => `<li class="${stepClass(s.status)}"><span class="glyph">${stepGlyph(s.status)}</span> ${escape(s.text)}</li>`).join("")}</ol></dd>`
      : "",
    `<dt>Expected / found</dt><dd>${expectedFound(f.message)}</dd>`,
    ...(f.exchanges && f.exchanges.length > 0
      ? [
          `<dt>Calls, in order (${f.exchanges.length})</dt><dd><ol class="calls">${f.exchanges.map((e) => `<li>${escape(e.agent)} → <code>${escape(e.tool)}</code>${pre(e.sent)}reply:${pre(e.reply)}</li>`).join("")}</ol></dd>`,
        ]
      : [
          f.request
            ? `<dt>Request (${escape(f.request.agent)}): <code>${escape(f.request.tool)}</code></dt><dd>${pre(f.request.sent ?? f.request.args)}</dd>`
            : "",
          f.reply !== undefined ? `<dt>Reply</dt><dd>${pre(f.reply)}</dd>` : "",
        ]),
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

/** A verdict's glyph beside its colour: the page reads the same without colour. */
const GLYPH: Record<RuleReport["verdict"], string> = {
  pass: "✓",
  fail: "✗",
  baselined: "✗",
  flaky: "↻",
  "not-applicable": "–",
  uncovered: "?",
  "not-selected": "·",
  "not-run": "○",
};
const SCENARIO_GLYPH: Record<string, string> = { pass: "✓", fail: "✗", baselined: "✗", flaky: "↻", "not-applicable": "–", "not-run": "○" };

/** A scenario's key: the same scenario under several rules is one failure. */
const scenarioKey = (s: { uri: string; line: number | undefined; name: string }) => `${s.uri}:${s.line ?? "?"}:${s.name}`;

/** Each failed scenario once, with the rules it fails, numbered for the links every rule section gives to it. */
function failedScenarios(run: RunSummary): Array<{ id: string; scenario: RuleReport["scenarios"][number]; rules: string[] }> {
  const byKey = new Map<string, { id: string; scenario: RuleReport["scenarios"][number]; rules: string[] }>();
  for (const r of run.rules) {
    for (const s of r.scenarios.filter((x) => x.failure !== undefined)) {
      const key = scenarioKey(s);
      const known = byKey.get(key) ?? { id: `failure-${byKey.size + 1}`, scenario: s, rules: [] };
      known.rules.push(r.id);
      byKey.set(key, known);
    }
  }
  return [...byKey.values()];
}

const OPEN_FAILURES = 3;

/** Every failed scenario, each rendered once: the rules it blames link here. */
function failuresSection(failed: ReturnType<typeof failedScenarios>): string {
  if (failed.length === 0) return "";
  // The first few open; they come below the grid and the root causes, which a reader sees first.
  const items = failed.map(
    ({ id, scenario: s, rules }, i) =>
      `<details id="${id}" class="rule failed-scenario"${i < OPEN_FAILURES ? " open" : ""}><summary><span class="glyph bad">✗</span> <b>${escape(s.name)}</b> <small>${escape(s.uri)}:${s.line ?? "?"}</small> · ${s.verdict === "fail" ? "fails" : "fails no rule; not judged:"} ${rules.map((r) => `<a class="chip" style="background:${COLOUR.fail}" href="#${r}">${r}</a>`).join(" ")}</summary>${failureBlock(s.failure!)}</details>`,
  );
  return `<section class="failures"><h2>Failed scenarios (${failed.length})</h2>${items.join("")}</section>`;
}

function ruleSection(r: RuleReport, run: RunSummary, failureIds: ReadonlyMap<string, string>): string {
  const scenarios = r.scenarios
    .map((s) => {
      const failure = s.failure ? failureIds.get(scenarioKey(s)) : undefined;
      return `<li><span class="dot" style="background:${COLOUR[s.verdict === "baselined" ? "baselined" : s.verdict]}"></span><span class="glyph">${SCENARIO_GLYPH[s.verdict] ?? "?"}</span> ${escape(s.name)} <small>${escape(s.uri)}:${s.line ?? "?"} · ${s.verdict}</small>${s.reason && !s.failure ? `<div class="reason">${escape(s.reason)}</div>` : ""}${failure ? ` <a href="#${failure}">the failure ↓</a>` : ""}</li>`;
    })
    .join("");
  return [
    // A failed rule is open from the start: what failed is what a reader came for.
    `<details id="${r.id}" class="rule verdict-${r.verdict}"${r.verdict === "fail" ? " open" : ""}><summary><span class="chip" style="background:${COLOUR[r.verdict]}">${GLYPH[r.verdict]} ${r.id}</span> <b>${escape(verdictText(r, run))}</b> · ${r.level} · ${escape(r.title)}</summary>`,
    `<blockquote>${escape(r.source)}</blockquote>`,
    r.decision ? `<p><b>Decision:</b> ${escape(r.decision)}</p>` : "",
    r.reason ? `<p class="reason">${escape(r.reason)}</p>` : "",
    r.judged
      ? `<p class="reason">Judged ${r.judged.scenarios} time(s) by its scenarios that passed, ${r.judged.oracleChecks} by the oracles over every scenario's history.</p>`
      : "",
    r.scenarios.length > 0 ? `<ul class="scenarios">${scenarios}</ul>` : "<p>No scenario of this rule ran.</p>",
    `</details>`,
  ].join("");
}

/** The failures by likely root cause, under the grid and above the failures' detail: a reader starts at the cause, not at the first family's rules. */
function causes(run: RunSummary): string {
  if (run.failureGroups.length === 0) return "";
  const items = run.failureGroups.map((g) => {
    const rules = g.rules.map((id) => `<a class="chip" style="background:${COLOUR.fail}" href="#${id}">${id}</a>`).join(" ");
    const scenarios = g.scenarios.map((s) => `<li>${escape(s.name)} <small>${escape(s.uri)}:${s.line ?? "?"}</small></li>`).join("");
    // A doc's own `code` spans read as code here too.
    const pointers = g.pointers.map((p) => `<div class="pointer">how to satisfy ${escape(p).replace(/`([^`]+)`/g, "<code>$1</code>")}</div>`).join("");
    return `<li><b>${g.scenarios.length} scenario(s)</b> ${rules}<br>at <code>${escape(g.step)}</code>: <span class="cause">${escape(g.cause)}</span>${pointers}<details><summary>scenarios</summary><ul>${scenarios}</ul></details></li>`;
  });
  return `<section class="causes"><h2>Likely root causes</h2><ol>${items.join("")}</ol></section>`;
}

/** The source, sentence by sentence, with the rules that judge each and their verdicts in this run: what of the source this run has shown. */
function sourceSection(run: RunSummary): string {
  // A run that never started counted no scenario: the suite's own counts are then read from the features.
  const coverage = sourceCoverage({ run, file: "this run" }, run.verdict === "not-run" ? undefined : run.scenariosInSuite);
  const rows = coverage.rows.map((row) => {
    const rules = row.judged
      .map(
        (j) =>
          `<a class="chip" style="background:${COLOUR[(j.verdict ?? "not-selected") as RuleReport["verdict"]] ?? COLOUR["not-selected"]}" href="#${j.id}" title="${j.level} · ${j.scenarios} scenario(s) · ${escape(j.verdict ?? "")}">${j.id}</a>`,
      )
      .join(" ");
    const note =
      row.how === "informative" || row.how === "covered"
        ? `<div class="reason">${escape(row.why ?? "")}</div>`
        : row.how === "unmapped"
          ? `<div class="reason">No rule judges this sentence.</div>`
          : "";
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
      const cells = rules
        .map(
          (r) =>
            `<a class="cell verdict-${r.verdict}" href="#${r.id}" title="${r.id}: ${escape(verdictText(r, run))} — ${escape(r.title)}" style="background:${COLOUR[r.verdict]}">${r.id.slice(family.length + 1)}<small>${GLYPH[r.verdict]} ${r.level[0]}</small></a>`,
        )
        .join("");
      return `<tr><th title="${escape(families[family] ?? "")}">${family}<small>${escape(families[family] ?? "")}</small></th><td>${cells}</td></tr>`;
    })
    .join("");
  const listed = new Set(listedRules(run));
  const failed = failedScenarios(run);
  const failureIds = new Map(failed.map((f) => [scenarioKey(f.scenario), f.id]));
  const sections = [...byFamily]
    .map(([family, all]) => [family, all.filter((r) => listed.has(r))] as const)
    .filter(([, rules]) => rules.length > 0)
    .map(
      ([family, rules]) =>
        `<section class="family"><h2>${family} · ${escape(families[family] ?? "")}</h2>${rules.map((r) => ruleSection(r, run, failureIds)).join("")}</section>`,
    )
    .join("");
  const counts = (Object.keys(COLOUR) as RuleReport["verdict"][])
    .map((v) => [v, run.rules.filter((r) => r.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `<span class="legend"><span class="dot" style="background:${COLOUR[v]}"></span>${GLYPH[v]} ${n} ${v}</span>`)
    .join(" ");
  const identity = run.broker.serverInfo ? ` (${escape(run.broker.serverInfo.name)} ${escape(run.broker.serverInfo.version)})` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lomi conformance: ${escape(titleOf(run, (t) => t))}</title>
<style>
${BASE_STYLE}
table.grid{border-collapse:collapse;margin:12px 0}
.grid th{text-align:left;padding:4px 10px 4px 0;font-weight:600;white-space:nowrap;vertical-align:top}
.grid th small{display:block;font-weight:400;color:#57606a;font-size:11px}
.cell{display:inline-block;width:34px;height:34px;margin:2px;border-radius:4px;color:#fff;text-align:center;font:600 12px/22px monospace;text-decoration:none}
.cell small{display:block;font-size:9px;line-height:8px;opacity:.85}
.legend{margin-right:12px} details.rule{border:1px solid #d0d7de;border-radius:6px;margin:6px 0;padding:6px 10px}
details.rule:target{outline:3px solid #0969da}
table.source td{border-top:1px solid #d0d7de;padding:4px 8px;vertical-align:top} dl.failure dt{font-weight:600;margin-top:6px} dl.failure dd{margin-left:12px}
ol.steps{list-style:none;padding-left:0;font-family:monospace} ol.steps .ok .glyph{color:#1a7f37} ol.steps .bad{color:#cf222e;font-weight:600} ol.steps .skip{color:#6e7781}
.tools{margin:12px 0} .tools input[type=search]{width:280px;padding:4px 8px}
body.failures-only details.rule:not(.verdict-fail):not(.failed-scenario), body.failures-only .cell:not(.verdict-fail){display:none} .hidden{display:none}
</style></head><body>
<h1>Lomi conformance: ${titleOf(run, (t) => `<code>${escape(t)}</code>`)}</h1>
${run.verdict === "not-run" ? `<div class="banner" style="background:${COLOUR.fail}">✗ ${escape(notRunBanner(run))}${run.command ? `<code>${escape(run.command)}</code>` : ""}</div>` : ""}
<div class="meta">Broker: ${escape(run.broker.adapter)}${identity} · seed ${run.seed} · level ${run.level} · ${(run.durationMs / 1000).toFixed(1)} s · ${run.scenarios.pass} of ${run.scenarios.total} scenarios passed${run.shards ? `<br>${escape(shardTimesText(run.shards))}` : ""}${run.provenance ? `<br><span class="provenance">Made by ${escape(provenanceText(run.provenance))}${run.evidence ? ` · evidence <code>${escape(run.evidence.digest)}</code> (<code>lomi-conformance verify</code> checks these reports against it)` : ""}</span>` : ""}</div>
<div>${counts}</div>
<div class="tools"><label><input type="checkbox" id="failures-only"> failures only</label> · <input type="search" id="search" placeholder="search rules and scenarios (ID, words)"></div>
<table class="grid">${grid}</table>
${causes(run)}
${failuresSection(failed)}
${sections}
<h2>Source coverage</h2>
${sourceSection(run)}
<script>
// A cell links to its rule: open it, so the link lands on its content.
const open = () => { const d = document.getElementById(location.hash.slice(1)); if (d && d.tagName === "DETAILS") d.open = true; };
addEventListener("hashchange", open); open();
// "failures only" hides every rule that did not fail; the search keeps the rules and failures whose text holds every word typed.
document.getElementById("failures-only").addEventListener("change", (e) => document.body.classList.toggle("failures-only", e.target.checked));
document.getElementById("search").addEventListener("input", (e) => {
  const words = e.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const d of document.querySelectorAll("details.rule")) d.classList.toggle("hidden", !words.every((w) => d.textContent.toLowerCase().includes(w)));
});
</script>
</body></html>
`;
}
