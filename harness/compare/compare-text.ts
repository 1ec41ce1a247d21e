import { VERDICT_ICON } from "../report/markdown-report.js";
import { CHANGES, type Change, type ComparedItem, type Comparison } from "./compare-runs.js";

const WORDS: Record<Change, string> = {
  newlyFailing: "newly failing",
  fixed: "fixed",
  stillFailing: "still failing",
  newlyNotJudged: "newly not judged",
  flaky: "flaky",
};

// A verdict as conformance.md shows it; a rule or scenario one run lacks is absent there.
const ICON: Record<string, string> = { ...VERDICT_ICON, absent: "· absent" };

/** "2 rules newly failing, 1 fixed, …": the counts, newly failing first. */
function counts(c: Comparison, of: "rules" | "scenarios"): string {
  return CHANGES.map((k) => `${c[of][k].length} ${WORDS[k]}`).join(", ");
}

/** The comparison's one line: what a pull request changed, as the console, the markdown and a CI log say it. */
export function comparisonHeadline(c: Comparison): string {
  const failing = c.rules.newlyFailing.map((r) => r.id);
  const scenarios = c.scenarios.newlyFailing.length;
  if (c.verdict === "regressed") {
    return `REGRESSED: ${failing.length > 0 ? `${failing.length} rule(s) newly failing (${failing.join(", ")})` : "no rule newly failing"}, ${scenarios} scenario(s) newly failing`;
  }
  return `NO REGRESSION: nothing newly failing; ${c.rules.fixed.length} rule(s) fixed, ${c.rules.stillFailing.length} still failing`;
}

const line = (item: ComparedItem, of: "rules" | "scenarios") =>
  `${item.id}${of === "rules" ? ` (${item.level ?? "?"})` : ""} ${item.base} → ${item.head}: ${item.reason ?? item.title}`;

/** What starts every line compare writes on the console, its errors included (cli.ts). */
export const COMPARE_PREFIX = "lomi-conformance compare: ";

/** For the console: the headline, the counts, and every rule and scenario that changed, newly failing first; each line with compare's prefix. */
export function comparisonText(c: Comparison): string {
  const out = [
    comparisonHeadline(c),
    `BASE ${c.base.reports}: ${c.base.headline}`,
    `HEAD ${c.head.reports}: ${c.head.headline}`,
    `rules: ${counts(c, "rules")}`,
    `scenarios: ${counts(c, "scenarios")}`,
  ];
  for (const k of CHANGES.filter((x) => x !== "stillFailing")) {
    for (const of of ["rules", "scenarios"] as const) for (const item of c[of][k]) out.push(`${WORDS[k].toUpperCase()} ${line(item, of)}`);
  }
  for (const w of c.warnings) out.push(`WARNING ${w}`);
  return out.map((l) => `${COMPARE_PREFIX}${l}\n`).join("");
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function ruleTable(items: readonly ComparedItem[]): string[] {
  return [
    "| rule | level | base | head | now |",
    "|---|---|---|---|---|",
    ...items.map((r) => `| ${r.id} | ${r.level ?? ""} | ${ICON[r.base] ?? r.base} | ${ICON[r.head] ?? r.head} | ${cell(r.reason ?? r.title)} |`),
  ];
}

const scenarioList = (items: readonly ComparedItem[]) =>
  items.map((s) => `- \`${s.id}\` ${cell(s.title)} (${ICON[s.base] ?? s.base} → ${ICON[s.head] ?? s.head})`);

/** Fit for a pull-request comment: the headline, the counts, then each kind of change; still failing folded away. */
export function comparisonMarkdown(c: Comparison): string {
  const out = [
    `## Lomi conformance, compared with the base: ${comparisonHeadline(c)}`,
    "",
    `| | rules | scenarios |`,
    `|---|---|---|`,
    ...CHANGES.map((k) => `| ${WORDS[k]} | ${c.rules[k].length} | ${c.scenarios[k].length} |`),
    "",
    `Base: ${cell(c.base.headline)} (\`${c.base.reports}\`, seed ${c.base.seed})  `,
    `Head: ${cell(c.head.headline)} (\`${c.head.reports}\`, seed ${c.head.seed})`,
    "",
    ...c.warnings.map((w) => `> ⚠️ ${cell(w)}`),
    ...(c.warnings.length > 0 ? [""] : []),
  ];
  for (const k of CHANGES) {
    const [rules, scenarios] = [c.rules[k], c.scenarios[k]];
    if (rules.length + scenarios.length === 0) continue;
    const body = [...(rules.length > 0 ? ruleTable(rules) : []), "", ...scenarioList(scenarios), ""];
    // Still failing is the base's news, not this change's: there, but folded.
    if (k === "stillFailing")
      out.push(`<details><summary>Still failing: ${rules.length} rule(s), ${scenarios.length} scenario(s)</summary>`, "", ...body, "</details>", "");
    else out.push(`### ${WORDS[k][0]!.toUpperCase()}${WORDS[k].slice(1)}`, "", ...body);
  }
  out.push("The whole report of this run: conformance.md beside this file (the run's reports artifact).", "");
  return out.join("\n");
}
