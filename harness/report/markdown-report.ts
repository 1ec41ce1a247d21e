import { boundedText } from "../text/bounded-json.js";
import { entryText } from "./baseline.js";
import { provenanceText } from "./provenance.js";
import { passEveryText } from "./repetitions.js";
import { detailOf, folded, ledgerText, recordsText, stepsText, summaryOf } from "./failure-context.js";
import type { FailureGroup } from "./failure-groups.js";
import type { RuleReport } from "./rule-verdicts.js";
import { listedRules, ranOf, scenarioCountsText, shardTimesText, titleOf, type RunSummary } from "./run-summary.js";
import { markdownCell } from "../text/markdown-cell.js";

/** How conformance.md shows a verdict: an icon and its word (compare's tables show them alike). */
export const VERDICT_ICON: Record<string, string> = {
  pass: "✅ pass",
  fail: "❌ fail",
  baselined: "🟨 baselined",
  flaky: "🔁 flaky",
  "not-applicable": "➖ not applicable",
  uncovered: "⚠️ uncovered",
  "not-selected": "· not selected",
  "not-run": "○ not run",
};
const MAX_FAILURES = 10;
const MAX_PROBLEMS = 20;

// A table cell keeps every word: a note cut mid-word hid what failed.
const clip = (value: unknown, max = 1500) => boundedText(value, max, 1);
/** Calls conformance.md shows of a failed scenario (conformance.html shows them all). */
const MD_EXCHANGES = 4;

/**
 * What the failed check found: its summary line (every value that differs), then what it looked at;
 * a long detail (a line per tool of a tools/list) folded under it.
 */
function expectedFound(message: string): string[] {
  const summary = summaryOf(message);
  const detail = detailOf(message);
  const shown =
    detail === ""
      ? []
      : folded(detail)
        ? [`<details><summary>the detail (${detail.split("\n").length} lines)</summary>`, "", "```", clip(detail, 20_000), "```", "</details>", ""]
        : ["```", clip(detail), "```"];
  return ["Expected / found:", "```", clip(summary, 20_000), "```", ...shown];
}

/** One failed scenario, explained: the rules it checks, the step, what it expected, the request, the reply, the ledger. */
function failureSection(rules: RuleReport[], s: RuleReport["scenarios"][number]): string[] {
  const f = s.failure;
  const out = [`<details><summary>${rules.map((r) => r.id).join(", ")} · ${s.name} (${s.uri}:${s.line ?? "?"})</summary>`, ""];
  // The rule's own sentence beside the failure: a reader judges the finding against what the source says.
  for (const r of rules) out.push(`- ${r.id} (${r.level}): ${r.title}`, `  > ${markdownCell(r.source)}`);
  out.push("");
  if (!f) return [...out, "```", clip(s.reason ?? ""), "```", "</details>", ""];
  if (f.lost) out.push(`Not shown: ${f.lost}.`, "");
  out.push(`Failed at: \`${f.step ?? "?"}\``, "");
  if (f.steps && f.steps.length > 0) out.push("Steps:", "```", stepsText(f.steps), "```");
  out.push(...expectedFound(f.message));
  const calls = f.exchanges ?? [];
  if (calls.length > 0) {
    // The last calls, each request byte for byte as sent: the failure is at the end.
    const shown = calls.slice(-MD_EXCHANGES);
    out.push(`Calls (${calls.length > shown.length ? `the last ${shown.length} of ${calls.length}; all in conformance.html` : `${calls.length}, in order`}):`);
    for (const [i, e] of shown.entries())
      out.push(
        `${calls.length - shown.length + i + 1}. ${e.agent} → \`${e.tool}\``,
        "```json",
        clip(e.sent),
        "```",
        "   reply:",
        "```json",
        clip(e.reply),
        "```",
      );
  } else {
    if (f.request) out.push(`Request (${f.request.agent}): \`${f.request.tool}\``, "```json", clip(f.request.sent ?? f.request.args), "```");
    if (f.reply !== undefined) out.push("Reply:", "```json", clip(f.reply), "```");
  }
  if (f.ledger.length > 0) out.push("Lomi's ledger:", "```", clip(ledgerText(f.ledger)), "```");
  for (const o of f.oracles ?? []) {
    out.push(`Oracle \`${o.id}\` (${o.rules.join(", ")}): ${o.title}`);
    for (const v of o.violations) out.push(`- ${markdownCell(v.message)}`, ...(v.records.length > 0 ? ["```", clip(recordsText(v.records)), "```"] : []));
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
    const where = g.scenarios
      .slice(0, 3)
      .map((s) => `${s.uri}:${s.line ?? "?"}`)
      .join(", ");
    const head = `- **${g.scenarios.length} scenario(s)**${g.rules.length > 0 ? ` failing ${g.rules.join(", ")}` : ""}: at \`${markdownCell(g.step)}\`: ${markdownCell(g.cause)} (${where}${g.scenarios.length > 3 ? ", …" : ""})`;
    return [head, ...g.pointers.map((p) => `  - how to satisfy ${markdownCell(p)}`)].join("\n");
  });
  const more = groups.length > MAX_GROUPS ? [`- … and ${groups.length - MAX_GROUPS} more causes, every one in conformance.json (\`failureGroups\`)`] : [];
  return ["Likely root causes (failures grouped by the step that failed and what it found):", ...lines, ...more, ""];
}

/** Each flaky scenario (--retries) with every attempt's seed and the command that replays it. */
function flakySection(run: RunSummary): string[] {
  const flaky = (run.scenarioVerdicts ?? []).filter((s) => s.verdict === "flaky");
  if (flaky.length === 0) return [];
  const lines = flaky.flatMap((s) => [
    `- ${markdownCell(s.name)} (${s.uri}:${s.line ?? "?"})`,
    ...(s.attempts ?? []).map(
      (a) => `  - attempt ${a.attempt} ${a.verdict}, seed ${a.seed ?? "?"}${a.reason ? `: ${markdownCell(a.reason)}` : ""} — \`${a.replay}\``,
    ),
  ]);
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
    `Scenarios: ${scenarioCountsText(run.scenarios)} (of ${run.scenarios.total})`,
    ...(run.provenance
      ? [
          `Made by ${provenanceText(run.provenance)}${run.evidence ? ` · evidence \`${run.evidence.digest}\` (\`lomi-conformance verify\` checks these reports against it)` : ""}`,
        ]
      : []),
    ...(run.shards ? [shardTimesText(run.shards)] : []),
    "",
    ...(run.problems.length > 0
      ? [
          "Gate fails:",
          ...run.problems.slice(0, MAX_PROBLEMS).map((p) => `- ${markdownCell(p)}`),
          ...(run.problems.length > MAX_PROBLEMS
            ? [`- … and ${run.problems.length - MAX_PROBLEMS} more gate problems, every one in conformance.json (\`problems\`)`]
            : []),
          "",
        ]
      : []),
    ...(run.warnings.length > 0 ? ["Warnings:", ...run.warnings.map((w) => `- ${markdownCell(w)}`), ""] : []),
    ...causesSection(run.failureGroups),
    ...flakySection(run),
    "| rule | level | verdict | scenarios | judged | note |",
    "|---|---|---|---|---|---|",
  ];
  const rows = listed.map((r) => {
    const { ran, inSuite } = ranOf(r, run);
    const part = ran < inSuite ? ` (${ran} of ${inSuite} scenarios ran)` : "";
    const repeat = r.repeat ? ` (${passEveryText(r.repeat)})` : "";
    return `| ${r.id} | ${r.level} | ${VERDICT_ICON[r.verdict]}${part}${repeat} | ${r.scenarios.length} | ${r.judged ? `${r.judged.scenarios} + ${r.judged.oracleChecks}` : "—"} | ${markdownCell(r.reason ?? r.title)} |`;
  });
  const failures = failedScenarios(run.rules);
  const explained = failures.slice(0, MAX_FAILURES).flatMap((f) => failureSection(f.rules, f.scenario));
  const more = failures.length > MAX_FAILURES ? [`… and ${failures.length - MAX_FAILURES} more failed scenarios in conformance.json.`, ""] : [];
  const baseline =
    run.baselineEntries.length > 0
      ? [
          "",
          "### Baseline",
          "",
          "| entry | status | reason |",
          "|---|---|---|",
          ...run.baselineEntries.map(
            (e) =>
              `| ${e.kind} ${markdownCell(e.name)} | ${e.status}${e.expect === "fail" || e.expect === "not-judged" ? ` (pins ${e.expect})` : ""} | ${markdownCell(entryText(e))} |`,
          ),
        ]
      : [];
  return [...head, ...rows, ...baseline, "", ...(explained.length > 0 ? ["### Failures", "", ...explained, ...more] : [])].join("\n");
}
