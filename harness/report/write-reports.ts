import { writeFileSync } from "node:fs";
import path from "node:path";
import type { RuleReport, Level } from "./rule-verdicts.js";
import type { ScenarioResult } from "./scenario-results.js";

export interface RunSummary {
  broker: string;
  seed: number;
  level: Level;
  tags: string | undefined;
  startedAt: string;
  durationMs: number;
  conformant: boolean;
  scenarios: { total: number; pass: number; fail: number; notApplicable: number };
  rules: RuleReport[];
}

export function summarize(results: ScenarioResult[]) {
  return {
    total: results.length,
    pass: results.filter((r) => r.verdict === "pass").length,
    fail: results.filter((r) => r.verdict === "fail").length,
    notApplicable: results.filter((r) => r.verdict === "not-applicable").length,
  };
}

const ICON: Record<string, string> = { pass: "✅ pass", fail: "❌ fail", "not-applicable": "➖ not applicable", uncovered: "⚠️ uncovered", "not-selected": "· not selected" };

/** A compact table fit for a pull-request comment or a CI step summary. */
export function markdownReport(run: RunSummary): string {
  const head = [
    `## Lomi conformance: ${run.conformant ? "conformant" : "NOT conformant"}`,
    "",
    `Broker: ${run.broker} · seed ${run.seed} · level ${run.level}${run.tags ? ` · tags \`${run.tags}\`` : ""} · ${(run.durationMs / 1000).toFixed(1)} s`,
    `Scenarios: ${run.scenarios.pass} passed, ${run.scenarios.fail} failed, ${run.scenarios.notApplicable} not applicable (of ${run.scenarios.total})`,
    "",
    "| rule | level | verdict | scenarios | note |",
    "|---|---|---|---|---|",
  ];
  const rows = run.rules.map(
    (r) => `| ${r.id} | ${r.level} | ${ICON[r.verdict]} | ${r.scenarios.length} | ${(r.reason ?? r.title).replace(/\|/g, "\\|").replace(/\n/g, " ").slice(0, 160)} |`,
  );
  return [...head, ...rows, ""].join("\n");
}

export function writeReports(dir: string, run: RunSummary): void {
  writeFileSync(path.join(dir, "conformance.json"), `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(path.join(dir, "conformance.md"), markdownReport(run));
}
