import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { scenarioCatalogue } from "./feature-catalogue.js";
import { baselineFileFor, loadBaseline, NO_BASELINE } from "./report/baseline.js";
import { baselineReport, gateProblems, isConformant, judgeRules, type Level } from "./report/rule-verdicts.js";
import { readBrokerIdentity, readScenarioResults } from "./report/scenario-results.js";
import { REPORT_FILES, summarize, writeReports, type RunSummary } from "./report/write-reports.js";
import { citedRules, loadRules } from "./rules.js";
import type { RunParameters } from "./run-parameters.js";
import { STEP_FILES, WORKER_NODE_OPTION } from "./step-files.js";
import { KIT_ROOT } from "../protocol/kit-root.js";

const ROOT = KIT_ROOT;
/** This folder's progress formatter, compiled or TypeScript as this module is. */
const PROGRESS_FORMATTER = fileURLToPath(new URL(`./progress-formatter${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));

export interface SuiteOptions {
  parameters: RunParameters;
  brokerName: string;
  /** The broker's serverInfo when the harness learnt it before the run (a URL broker's preflight). */
  serverInfo: { name: string; version: string } | undefined;
  tags: string | undefined;
  parallel: number;
  reports: string;
  level: Level;
  baselineFile: string | undefined;
  /** Where to write the baseline that expects this run's failing rules (--write-baseline). */
  writeBaseline: string | undefined;
}

const countBy = (ids: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const id of ids) counts[id] = (counts[id] ?? 0) + 1;
  return counts;
};

/** Removes an earlier run's reports, so none passes for this run's (a preflight may stop it). */
export function clearReports(dir: string): void {
  mkdirSync(dir, { recursive: true });
  // Only the report files go: --reports may name a folder that holds other things.
  for (const f of REPORT_FILES) rmSync(path.join(dir, f), { force: true });
}

/** Runs the scenarios, judges every rule, writes the reports; answers the exit code (0 gate passes, 1 it fails, 2 the harness itself failed). */
export async function runSuite(o: SuiteOptions): Promise<number> {
  const rulesFile = loadRules();
  const known = new Set(rulesFile.rules.map((r) => r.id));
  const all = scenarioCatalogue();
  // A baseline with a typo is refused before anything runs.
  const baseline = o.baselineFile ? loadBaseline(o.baselineFile, known, new Set(all.map((s) => s.name))) : NO_BASELINE;

  clearReports(o.reports);
  const messages = path.join(o.reports, "messages.ndjson");
  // Parallel workers load the steps as this process does.
  if (!(process.env.NODE_OPTIONS ?? "").includes(WORKER_NODE_OPTION)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} ${WORKER_NODE_OPTION}`.trim();
  process.env.LOMI_STEP_TIMEOUT_MS = String(o.parameters.timeoutMs);

  const started = Date.now();
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: [path.join(ROOT, "features/**/*.feature")],
        import: [STEP_FILES],
        strict: true,
        parallel: o.parallel > 1 ? o.parallel : 0,
        tags: o.tags ?? "",
        worldParameters: o.parameters,
        format: [PROGRESS_FORMATTER, `html:${path.join(o.reports, "cucumber.html")}`, `junit:${path.join(o.reports, "junit.xml")}`, `message:${messages}`],
      },
    },
    { cwd: ROOT },
  );
  await runCucumber(runConfiguration, { cwd: ROOT });

  const covered = new Set(all.flatMap((s) => citedRules(s.tags, known)));
  const results = readScenarioResults(messages);
  const selected = o.tags ? new Set(results.flatMap((s) => citedRules(s.tags, known))) : undefined;
  const rules = judgeRules(rulesFile.rules, results, covered, selected, baseline);
  const entries = baselineReport(rules, results, baseline);
  const conformant = isConformant(rules, o.level);
  const problems = gateProblems(rules, o.level, results, entries, baseline);
  const baselinedRules = new Set(rules.filter((r) => r.verdict === "baselined").map((r) => r.id));
  const expectedFailures = results.filter((s) => s.verdict === "fail" && (baseline.scenarios.has(s.name) || citedRules(s.tags, known).every((id) => baselinedRules.has(id)))).length;
  const run: RunSummary = {
    broker: { adapter: o.brokerName, serverInfo: o.serverInfo ?? readBrokerIdentity(messages) },
    seed: o.parameters.seed,
    level: o.level,
    tags: o.tags,
    baseline: o.baselineFile,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    verdict: conformant ? "conformant" : problems.length === 0 ? "conformant-with-baseline" : "not-conformant",
    conformant,
    problems,
    scenarios: summarize(results, expectedFailures),
    rules,
    baselineEntries: entries,
    scenariosInSuite: countBy(all.flatMap((sc) => citedRules(sc.tags, known))),
  };
  writeReports(o.reports, run);
  if (o.writeBaseline) writeFileSync(o.writeBaseline, baselineFileFor(rules));

  const counted = (v: string) => rules.filter((r) => r.verdict === v).length;
  const partial = o.tags ? `PARTIAL RUN (tags ${o.tags}), on the rules it reached: ` : "";
  process.stdout.write(
    `\nlomi-conformance: ${partial}${run.verdict.toUpperCase().replace(/-/g, " ")} — rules: ${counted("pass")} pass, ${counted("fail")} fail, ${counted("baselined")} baselined, ` +
      `${counted("not-applicable")} not applicable, ${counted("uncovered")} uncovered; ` +
      `scenarios: ${run.scenarios.pass} passed, ${run.scenarios.fail} failed, ${run.scenarios.baselined} baselined, ${run.scenarios.notApplicable} not applicable; ` +
      `${(run.durationMs / 1000).toFixed(1)} s\n`,
  );
  for (const r of rules.filter((x) => ["fail", "not-applicable", "uncovered"].includes(x.verdict) || x.baseline?.status === "stale")) {
    process.stdout.write(`  ${r.verdict.toUpperCase().replace("-", " ")} ${r.id}: ${r.reason}\n`);
  }
  for (const p of problems.filter((x) => !/^[A-Z]+-\d{2}: /.test(x))) process.stdout.write(`  GATE ${p}\n`);
  if (o.writeBaseline) process.stdout.write(`lomi-conformance: wrote a baseline of ${rules.filter((r) => r.verdict === "fail" || r.verdict === "baselined").length} failing rule(s) to ${o.writeBaseline}; replace each placeholder reason\n`);
  const faults = results.filter((r) => r.harnessFault !== undefined);
  for (const r of faults) process.stdout.write(`  HARNESS ERROR in "${r.name}": ${r.harnessFault}\n`);
  process.stdout.write(`lomi-conformance: reports in ${path.relative(process.cwd(), o.reports) || "."}/ (conformance.html, conformance.md, conformance.json, conformance.svg, cucumber.html, junit.xml)\n`);
  // The harness's own failure invalidates the run whatever the rules say.
  return faults.length > 0 ? 2 : problems.length === 0 ? 0 : 1;
}
