import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { Envelope } from "@cucumber/messages";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfiguration, loadSupport, runCucumber } from "@cucumber/cucumber/api";
import { FEATURES_DIR, scenarioCatalogue, scenarioKey, type ScenarioEntry } from "./feature-catalogue.js";
import { onStop, type StopSignal } from "./stop-signal.js";
import type { Chosen } from "./scenario-choice.js";
import { loadBaseline, NO_BASELINE, type BaselineEntries } from "../report/baseline.js";
import { concludeRun } from "../report/conclude-run.js";
import { DEFAULT_DURATIONS, readDurations, writeDurations } from "../shards/durations.js";
import { fileDigest, kitVersion, selectionDigest, SHARD_MANIFEST, writeShardManifest } from "../shards/manifest.js";
import { shardText, type ShardSpec } from "../shards/shard-option.js";
import { splitSelection } from "../shards/split.js";
import { writeCucumberHtml } from "../shards/cucumber-html.js";
import { workersOrder } from "../shards/workers-order.js";
import { selectScenarios } from "./tag-selection.js";
import type { Level } from "../report/rule-verdicts.js";
import { configError } from "../harness-error.js";
import { lintSuite, lintText, type LintProblem } from "../authoring/lint.js";
import type { LoadedLibrary } from "../authoring/step-vocabulary.js";
import { readBrokerIdentity, readScenarioResults, type ScenarioResult } from "../report/scenario-results.js";
import { REPORT_FILES } from "../report/write-reports.js";
import { COMPARE_FILES } from "../compare/command.js";
import { profileOf } from "./profiles.js";
import { loadRules } from "../rules.js";
import type { RunParameters } from "./run-parameters.js";
import type { Invocation, RerunOf } from "../report/run-record.js";
import { readAttempts } from "../report/attempts.js";
import { readEnvelopes } from "../report/message-stream.js";
import { STEP_SUPPORT, USER_NODE_OPTIONS, WORKER_NODE_OPTION } from "./step-files.js";
import { rememberStepMatches } from "./step-matches.js";
import { KIT_ROOT } from "../../protocol/kit-root.js";

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
  /** Run only this part of the selection, and leave a shard manifest beside the reports for `merge`. */
  shard?: ShardSpec;
  /** Run only these scenarios of the tags' selection; `label` says in every report which, as a partial run. */
  only?: Chosen;
  /** The command line as typed, for the reports. */
  command?: string;
  /** How the run was called, recorded for a rerun of its failures; and the run this one re-runs, if it does. */
  invocation?: Invocation;
  rerunOf?: RerunOf;
  /** --retries: a failed scenario is run again up to this many times, on a fresh broker and store; one that then passes is flaky. */
  retries?: number;
  /** --flaky-ok: a flaky rule passes the gate. */
  flakyOk?: boolean;
  /** --update-baseline: the baseline file (also baselineFile) to rewrite after the run. */
  updateBaseline?: string;
  /** The measured durations --shard balances by (default: the kit's, fixtures/durations.json). */
  durationsFile?: string;
  /** Where to write this run's scenario durations (--write-durations). */
  writeDurations?: string;
}

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
  for (const f of [...REPORT_FILES, SHARD_MANIFEST, ...COMPARE_FILES]) rmSync(path.join(dir, f), { force: true });
}

/**
 * The step definitions, and the suite's authoring problems with them, once per process: ES modules
 * register the steps when first imported only (a second loadSupport would find none), and a process
 * that makes run after run (teeth's judges) has the same features and steps for each.
 */
let prepared: Promise<{ support: Awaited<ReturnType<typeof loadSupport>>; authoring: LintProblem[] }> | undefined;

async function prepare(runConfiguration: Parameters<typeof loadSupport>[0]) {
  const support = await loadSupport(runConfiguration, { cwd: ROOT });
  const library = support as unknown as LoadedLibrary;
  rememberStepMatches(library);
  return { support, authoring: await lintSuite(FEATURES_DIR, { library }) };
}

/** Runs the scenarios into o.reports (which the caller cleared with clearReports before its preflight), judges every rule, writes the reports; answers the exit code (0 gate passes, 1 it fails, 2 the harness itself failed). */
export async function runSuite(o: SuiteOptions): Promise<number> {
  const rulesFile = loadRules();
  const known = new Set(rulesFile.rules.map((r) => r.id));
  const all = scenarioCatalogue();
  const chosen = selectScenarios(o.tags, all);
  const only = o.only;
  const selection = only ? chosen.filter((s) => only.keys.has(scenarioKey(s))) : chosen;
  const durationsFile = o.durationsFile ?? DEFAULT_DURATIONS;
  const part = o.shard && shardPart(selection, o.shard, durationsFile);
  const ordered = workersOrder(part || selection, o.parallel, durationsFile);
  const profile = profileOf(o.parameters);
  // A baseline with a typo is refused before anything runs.
  const baseline = o.baselineFile ? loadBaseline(o.baselineFile, known, new Set(all.map((s) => s.name))) : NO_BASELINE;

  const messages = path.join(o.reports, "messages.ndjson");
  // Parallel workers load the steps as this process does; the brokers it starts get the user's NODE_OPTIONS.
  const nodeOptions = process.env.NODE_OPTIONS ?? "";
  if (WORKER_NODE_OPTION === undefined || !nodeOptions.includes(WORKER_NODE_OPTION)) {
    process.env[USER_NODE_OPTIONS] = nodeOptions;
    if (WORKER_NODE_OPTION !== undefined) process.env.NODE_OPTIONS = `${nodeOptions} ${WORKER_NODE_OPTION}`.trim();
  }
  process.env.LOMI_STEP_TIMEOUT_MS = String(o.parameters.timeoutMs);

  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: part || o.only ? cucumberPaths(ordered) : featurePaths(ordered),
        ...STEP_SUPPORT,
        strict: true,
        retry: o.retries ?? 0,
        parallel: o.parallel > 1 ? o.parallel : 0,
        tags: o.tags ?? "",
        // One process runs every scenario without --parallel: it can tell how many it will start.
        worldParameters: o.parallel > 1 ? o.parameters : { ...o.parameters, scenarios: ordered.length },
        // The progress lines of a shard say which it is.
        formatOptions: o.shard ? { lomiShard: shardText(o.shard) } : {},
        format: [PROGRESS_FORMATTER, `html:${path.join(o.reports, "cucumber.html")}`, `message:${messages}`],
      },
    },
    { cwd: ROOT },
  );
  prepared ??= prepare(runConfiguration);
  const { support, authoring } = await prepared;
  // The suite's own mistakes, in any feature, selected or not (an undefined or ambiguous step among
  // them), stop the run before any broker is judged.
  if (authoring.length > 0) throw configError(`the suite has ${authoring.length} authoring problem(s) (lomi-conformance lint):\n${lintText(authoring)}`);

  const started = Date.now();
  const envelopes: Envelope[] = [];
  // Every report is made from one reading of the run's message stream.
  const conclude = (stream: readonly Envelope[], results: ScenarioResult[], stopped?: string) =>
    concludeRun({
      ...(stopped !== undefined ? { stopped } : {}),
    rules: rulesFile.rules,
    results,
    suite: all,
    tags: o.tags,
    ...(o.shard ? { shard: shardText(o.shard) } : {}),
    ...(o.only ? { selection: o.only.label } : {}),
    ...(o.command !== undefined ? { command: o.command } : {}),
    ...(o.invocation ? { invocation: o.invocation } : {}),
    ...(o.rerunOf ? { rerunOf: o.rerunOf } : {}),
    attempts: readAttempts(stream),
    flakyOk: o.flakyOk ?? false,
    ...(o.parameters.replaySeed !== undefined ? { replaySeed: o.parameters.replaySeed } : {}),
    baseline,
    baselineFile: o.baselineFile,
    level: o.level,
    requireAll: o.requireAll,
    profile,
    broker: { adapter: o.brokerName, serverInfo: o.serverInfo ?? readBrokerIdentity(stream) },
    seed: o.parameters.seed,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    reports: o.reports,
    // A stopped run's failures are not all there are: it writes no baseline.
    writeBaseline: stopped === undefined ? o.writeBaseline : undefined,
    baselineEntries: o.baselineEntries,
    ...(o.updateBaseline ? { updateBaseline: o.updateBaseline } : {}),
  });
  // A stop signal (a CI job's timeout, Ctrl+C) ends the run where it is: the reports say what finished, the rest NOT RUN.
  const ignoreStop = onStop(async (signal) => {
    const sofar = envelopes.slice();
    writeMessages(messages, sofar);
    const results = readScenarioResults(sofar);
    conclude(sofar, [...results, ...notRunAfterStop(ordered, results, signal)], `the run was stopped by ${signal} after ${results.length} of ${ordered.length} scenario(s)`);
    await writeStoppedHtml(path.join(o.reports, "cucumber.html"), sofar);
  });
  try {
    await runCucumber({ ...runConfiguration, support }, { cwd: ROOT }, (e) => envelopes.push(e));
  } finally {
    ignoreStop();
  }
  envelopes.length = 0;

  const stream = readEnvelopes(messages);
  const results = readScenarioResults(stream);
  // Lint refused undefined and ambiguous steps already; should one get through, it is still the suite's fault.
  refuseBrokenSuite(results);
  const { code, run } = conclude(stream, results);
  if (o.writeDurations) process.stdout.write(`lomi-conformance: wrote the durations of ${writeDurations(o.writeDurations, results)} scenario(s) to ${o.writeDurations}\n`);
  // A shard's part is never empty (shardPart refuses that).
  if (o.shard && part) {
    writeShardManifest(o.reports, {
      format: "lomi-shard/1",
      run: {
        kitVersion: kitVersion(),
        seed: o.parameters.seed,
        broker: o.brokerName,
        tags: o.tags ?? null,
        count: o.shard.count,
        selectionDigest: selectionDigest(selection.map(scenarioKey)),
        level: o.level,
        requireAll: o.requireAll,
        oracles: o.parameters.oracles !== false,
        timeoutMs: o.parameters.timeoutMs,
        baseline: o.baselineFile ? { file: o.baselineFile, sha256: fileDigest(o.baselineFile) } : null,
      },
      profile: { ...profile, lacks: [...profile.lacks] },
      serverInfo: run.broker.serverInfo ?? null,
      index: o.shard.index,
      scenarios: part.map(scenarioKey),
      selectionSize: selection.length,
      startedAt: run.startedAt,
      durationMs: run.durationMs,
      wallMs: Math.round(performance.now()),
    });
  }
  return code;
}

/** The scenarios of this shard, balanced by the durations file; a shard left with none is refused (exit 2). */
function shardPart<T extends { uri: string; name: string }>(selection: readonly T[], shard: ShardSpec, durationsFile: string): T[] {
  const part = splitSelection(selection, readDurations(durationsFile), shard.count)[shard.index - 1];
  if (!part || part.length === 0) throw configError(`--shard ${shardText(shard)}: the selection has only ${selection.length} scenario(s), too few for ${shard.count} shards; use at most ${selection.length}`);
  return part;
}

/**
 * The message stream as the run left it, written whole beside the formatter's file and moved over it:
 * the formatter's writes still queued then land in the file it had open, not in this one.
 */
function writeMessages(file: string, envelopes: readonly Envelope[]): void {
  const whole = `${file}.stopped`;
  writeFileSync(whole, envelopes.map((e) => `${JSON.stringify(e)}\n`).join(""));
  renameSync(whole, file);
}

/** Cucumber's own HTML report of what a stopped run finished (its formatter writes only at the run's end), written beside the formatter's file and moved over it, as writeMessages does. */
async function writeStoppedHtml(file: string, envelopes: readonly Envelope[]): Promise<void> {
  await writeCucumberHtml(`${file}.stopped`, envelopes);
  renameSync(`${file}.stopped`, file);
}

/** The scenarios a stopped run did not finish, each NOT RUN with the reason (not applicable: never a pass, never a failure). */
function notRunAfterStop(ordered: readonly ScenarioEntry[], finished: readonly ScenarioResult[], signal: StopSignal): ScenarioResult[] {
  const done = new Set(finished.map((r) => `${r.uri}:${r.line}`));
  return ordered
    .filter((s) => !done.has(`${s.uri}:${s.line}`))
    .map((s) => ({ name: s.name, uri: s.uri, line: s.line, tags: s.tags, verdict: "not-applicable", status: "NOT RUN", reason: `NOT RUN: the run was stopped by ${signal} before this scenario finished`, durationMs: 0 }));
}

/** A feature file from its uri as the catalogue names it (`features/x.feature`). */
const featureFile = (uri: string) => path.join(path.dirname(FEATURES_DIR), uri);

/** Cucumber's paths for a selection: only the feature files that hold its scenarios (cucumber parses every file it is given), the tags choosing within them. */
function featurePaths(selection: ReadonlyArray<{ uri: string }>): string[] {
  if (selection.length === 0) return [path.join(FEATURES_DIR, "**/*.feature")];
  return [...new Set(selection.map((s) => featureFile(s.uri)))];
}

/** Cucumber's paths for some scenarios: each feature file once, with the lines of its scenarios (`file:12:40`). */
function cucumberPaths(scenarios: ReadonlyArray<{ uri: string; line: number }>): string[] {
  const lines = new Map<string, number[]>();
  for (const s of scenarios) lines.set(s.uri, [...(lines.get(s.uri) ?? []), s.line]);
  return [...lines].map(([uri, at]) => `${featureFile(uri)}:${at.join(":")}`);
}
