import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Writable } from "node:stream";
import { loadConfiguration, loadSupport, runCucumber } from "@cucumber/cucumber/api";
import { FEATURES_DIR, scenarioCatalogue } from "./feature-catalogue.js";
import { baselineFileFor, loadBaseline, NO_BASELINE, type BaselineEntries } from "./report/baseline.js";
import { judgeRun } from "./report/judge-run.js";
import type { Level } from "./report/rule-verdicts.js";
import { configError } from "./harness-error.js";
import { lintSuite, lintText } from "./lint.js";
import type { LoadedLibrary } from "./step-vocabulary.js";
import { readBrokerIdentity, readScenarioResults, type ScenarioResult } from "./report/scenario-results.js";
import { REPORT_FILES, titleOf, writeReports } from "./report/write-reports.js";
import { profileOf } from "./profiles.js";
import { loadRules } from "./rules.js";
import type { RunParameters } from "./run-parameters.js";
import { STEP_FILES, USER_NODE_OPTIONS, WORKER_NODE_OPTION } from "./step-files.js";
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
  /** Rules the profile cannot judge fail the run (for gates that want every rule). */
  requireAll: boolean;
  /** Where to write the baseline that expects this run's failures (--write-baseline), and by what (--baseline-entries). */
  writeBaseline: string | undefined;
  baselineEntries: BaselineEntries;
}

/** Where the dry run's own console output goes: the run proper reports. */
const devNull = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** A step the suite cannot run as written is a configuration error (exit 2) naming where it is written, never a broker's failure. */
function refuseBrokenSuite(results: ScenarioResult[]): void {
  const broken = results.filter((r) => r.configProblem !== undefined);
  const first = broken[0];
  if (!first) return;
  const more = broken.length > 1 ? ` (and ${broken.length - 1} more)` : "";
  throw configError(`${first.stepAt ?? `${first.uri}:${first.line ?? "?"}`}: ${first.configProblem}${more}`);
}

/** Removes an earlier run's reports, so none passes for this run's (a preflight may stop it). */
export function clearReports(dir: string): void {
  mkdirSync(dir, { recursive: true });
  // Only the report files go: --reports may name a folder that holds other things.
  for (const f of REPORT_FILES) rmSync(path.join(dir, f), { force: true });
}

/** Runs the scenarios into o.reports (which the caller cleared with clearReports before its preflight), judges every rule, writes the reports; answers the exit code (0 gate passes, 1 it fails, 2 the harness itself failed). */
export async function runSuite(o: SuiteOptions): Promise<number> {
  const rulesFile = loadRules();
  const known = new Set(rulesFile.rules.map((r) => r.id));
  const all = scenarioCatalogue();
  // A baseline with a typo is refused before anything runs.
  const baseline = o.baselineFile ? loadBaseline(o.baselineFile, known, new Set(all.map((s) => s.name))) : NO_BASELINE;

  const messages = path.join(o.reports, "messages.ndjson");
  // Parallel workers load the steps as this process does.
  if (!(process.env.NODE_OPTIONS ?? "").includes(WORKER_NODE_OPTION)) {
    process.env[USER_NODE_OPTIONS] = process.env.NODE_OPTIONS ?? "";
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} ${WORKER_NODE_OPTION}`.trim();
  }
  process.env.LOMI_STEP_TIMEOUT_MS = String(o.parameters.timeoutMs);

  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: [path.join(FEATURES_DIR, "**/*.feature")],
        import: [STEP_FILES],
        strict: true,
        parallel: o.parallel > 1 ? o.parallel : 0,
        tags: o.tags ?? "",
        worldParameters: o.parameters,
        format: [PROGRESS_FORMATTER, `html:${path.join(o.reports, "cucumber.html")}`, `message:${messages}`],
      },
    },
    { cwd: ROOT },
  );
  // The step definitions load once (ES modules register them once) and serve both runs.
  const support = await loadSupport(runConfiguration, { cwd: ROOT });

  // The suite's own mistakes, in any feature, selected or not, stop the run before any broker is judged.
  const authoring = await lintSuite(FEATURES_DIR, { library: support as unknown as LoadedLibrary });
  if (authoring.length > 0) throw configError(`the suite has ${authoring.length} authoring problem(s) (lomi-conformance lint):\n${lintText(authoring)}`);
  const quiet = { stdout: "summary", files: { [messages]: "message" } };
  await runCucumber({ ...runConfiguration, support, runtime: { ...runConfiguration.runtime, dryRun: true, parallel: 0 }, formats: { ...runConfiguration.formats, ...quiet } }, { cwd: ROOT, stdout: devNull() });
  refuseBrokenSuite(readScenarioResults(messages));

  const started = Date.now();
  await runCucumber({ ...runConfiguration, support }, { cwd: ROOT });

  const results = readScenarioResults(messages);
  const { run, baselinedScenarioReason } = judgeRun({
    rules: rulesFile.rules,
    results,
    suite: all,
    tags: o.tags,
    baseline,
    baselineFile: o.baselineFile,
    level: o.level,
    requireAll: o.requireAll,
    profile: profileOf(o.parameters),
    broker: { adapter: o.brokerName, serverInfo: o.serverInfo ?? readBrokerIdentity(messages) },
    seed: o.parameters.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  });
  const { rules, problems } = run;
  // The baseline first: a write that fails then leaves the NOT RUN reports the caller writes, never a verdict beside a missing baseline.
  if (o.writeBaseline) writeFileSync(o.writeBaseline, baselineFileFor(o.baselineEntries, rules, results, baseline));
  const reportFaults = writeReports(o.reports, run, results, baselinedScenarioReason);

  const counted = (v: string) => rules.filter((r) => r.verdict === v).length;
  process.stdout.write(
    `\nlomi-conformance: ${titleOf(run, (t) => t)}\nlomi-conformance: rules: ${counted("pass")} pass, ${counted("fail")} fail, ${counted("baselined")} baselined, ` +
      `${counted("not-applicable")} not applicable, ${counted("uncovered")} uncovered; ` +
      `scenarios: ${run.scenarios.pass} passed, ${run.scenarios.fail} failed, ${run.scenarios.baselined} baselined, ${run.scenarios.notApplicable} not applicable; ` +
      `${(run.durationMs / 1000).toFixed(1)} s\n`,
  );
  for (const r of rules.filter((x) => ["fail", "not-applicable", "uncovered"].includes(x.verdict) || x.baseline?.status === "stale")) {
    process.stdout.write(`  ${r.verdict === "not-applicable" ? "NOT JUDGED HERE" : r.verdict.toUpperCase()} ${r.id}: ${r.reason}\n`);
    if (r.verdict === "fail") process.stdout.write(`      ${r.id} (${r.level}): ${r.title}\n      source: "${r.source}"\n`);
  }
  for (const p of problems.filter((x) => !/^[A-Z]+-\d{2}: /.test(x))) process.stdout.write(`  GATE ${p}\n`);
  for (const g of run.failureGroups.slice(0, 5)) {
    process.stdout.write(`  CAUSE of ${g.scenarios.length} failed scenario(s)${g.rules.length > 0 ? ` (${g.rules.join(", ")})` : ""}: at "${g.step}": ${g.cause}\n`);
  }
  for (const w of run.warnings) process.stdout.write(`  WARNING ${w}\n`);
  if (o.writeBaseline) {
    const written = o.baselineEntries === "rule" ? `${rules.filter((r) => r.verdict === "fail" || r.verdict === "baselined").length} failing rule(s)` : `${new Set(results.filter((r) => r.verdict === "fail").map((r) => r.name)).size} failing scenario(s)`;
    process.stdout.write(`lomi-conformance: wrote a baseline of ${written} to ${o.writeBaseline}; replace each placeholder reason\n`);
  }
  const faults = results.filter((r) => r.harnessFault !== undefined);
  for (const r of faults) process.stdout.write(`  HARNESS ERROR in "${r.name}": ${r.harnessFault}\n`);
  for (const f of reportFaults) process.stdout.write(`  HARNESS ERROR writing ${f} (written as a note; the other reports are whole)\n`);
  process.stdout.write(`lomi-conformance: reports in ${path.relative(process.cwd(), o.reports) || "."}/ (conformance.html, conformance.md, conformance.json, conformance.svg, cucumber.html, junit.xml)\n`);
  // The harness's own failure invalidates the run whatever the rules say.
  return faults.length > 0 || reportFaults.length > 0 || run.verdict === "not-run" ? 2 : problems.length === 0 ? 0 : 1;
}
