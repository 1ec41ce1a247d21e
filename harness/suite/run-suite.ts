import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { TimeConversion, type Envelope } from "@cucumber/messages";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfiguration, runCucumber, type IRunConfiguration, type ISupportCodeLibrary } from "@cucumber/cucumber/api";
import { FEATURES_DIR, scenarioCatalogue, scenarioKey, type ScenarioEntry } from "../run/feature-catalogue.js";
import { onStop, type StopSignal } from "./stop-signal.js";
import { stopProgress } from "./progress-formatter.js";
import type { Chosen } from "../run/scenario-choice.js";
import { loadBaseline, NO_BASELINE, type BaselineEntries } from "../report/baseline.js";
import { concludeRun } from "../report/conclude-run.js";
import { DEFAULT_DURATIONS, readDurations, writeDurations } from "../shards/durations.js";
import { fileDigest, kitVersion, selectionDigest, SHARD_MANIFEST, writeShardManifest } from "../shards/manifest.js";
import { shardText, type ShardSpec } from "../shards/shard-option.js";
import { splitSelection } from "../shards/split.js";
import { writeCucumberHtml } from "../shards/cucumber-html.js";
import { workersOrder } from "../shards/workers-order.js";
import { selectScenarios } from "../run/tag-selection.js";
import type { Level } from "../report/rule-verdicts.js";
import { configError } from "../harness-error.js";
import { lintSuite, lintText, type LintProblem } from "../authoring/lint.js";
import { stepLibrary } from "../authoring/step-vocabulary.js";
import type { ScenarioResult } from "../report/scenario-results.js";
import { brokerIdentity } from "../report/scenario-findings.js";
import { collectMessages, type MessageCollector } from "../report/message-collector.js";
import { brokerProvenance, provenanceOf } from "../report/provenance.js";
import { DEFAULT_HISTORIES, judgedScenarios, judgeStream, REPEATS_DIR, streamFiles, type JudgedStream, type Unfinished } from "../report/evidence.js";
import { REPORT_FILES } from "../report/write-reports.js";
import { COMPARE_FILES } from "../compare/command.js";
import { profileOf } from "../run/profiles.js";
import { loadRules } from "../rules.js";
import type { RunParameters } from "../run/run-parameters.js";
import type { Invocation, RerunOf } from "../report/run-record.js";
import { readEnvelopes, readMessages } from "../report/message-stream.js";
import { STEP_SUPPORT, USER_NODE_OPTIONS, WORKER_NODE_OPTION } from "../run/step-files.js";
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
  /** --repeat N: every chosen scenario runs N times, each repetition on seeds of its own; each rule gets its pass^N. */
  repeat?: number;
  /** The broker image's ID (--broker-image), for the reports' provenance. */
  imageId?: string;
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
  // An earlier run's evidence too: verify must never read its histories or repetitions as this run's.
  for (const d of [REPEATS_DIR, DEFAULT_HISTORIES]) rmSync(path.join(dir, d), { recursive: true, force: true });
}

/**
 * The step definitions (once a process: authoring/step-vocabulary.ts's stepLibrary), and the suite's
 * authoring problems with them, once per process: a process that makes run after run (teeth's
 * judges) has the same features and steps for each.
 */
let prepared: Promise<{ support: ISupportCodeLibrary; authoring: LintProblem[] }> | undefined;

async function prepare() {
  const library = await stepLibrary();
  rememberStepMatches(library);
  return { support: library as unknown as ISupportCodeLibrary, authoring: await lintSuite(FEATURES_DIR, { library }) };
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
  prepared ??= prepare();
  const { support, authoring } = await prepared;
  // The suite's own mistakes, in any feature, selected or not (an undefined or ambiguous step among
  // them), stop the run before any broker is judged.
  if (authoring.length > 0) throw configError(`the suite has ${authoring.length} authoring problem(s) (lomi-conformance lint):\n${lintText(authoring)}`);

  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const envelopes: Envelope[] = [];
  const historiesDir = o.parameters.historiesDir;
  /**
   * Every report is made from one reading of the run's message streams (a repetition's each, under
   * --repeat), each collected and judged once, as `lomi-conformance verify` reads them again: the
   * scenarios they judged, those a stopped run did not finish not run.
   */
  const conclude = (streams: readonly JudgedStream[], stopped?: { cause: string; unfinished?: Unfinished }) => {
    const { results, attempts } = judgedScenarios(streams, { unfinished: stopped?.unfinished }, all);
    const serverInfo = o.serverInfo ?? brokerIdentity(streams[0]?.messages);
    return concludeRun({
      ...(stopped !== undefined ? { stopped: stopped.cause } : {}),
      rules: rulesFile.rules,
      results,
      suite: all,
      tags: o.tags,
      ...(o.shard ? { shard: shardText(o.shard) } : {}),
      ...(o.only ? { selection: o.only.label } : {}),
      ...(o.command !== undefined ? { command: o.command } : {}),
      ...(o.invocation ? { invocation: o.invocation } : {}),
      ...(o.rerunOf ? { rerunOf: o.rerunOf } : {}),
      attempts,
      flakyOk: o.flakyOk ?? false,
      ...(o.parameters.replaySeed !== undefined ? { replaySeed: o.parameters.replaySeed } : {}),
      ...(streams.length > 1 ? { repeat: streams.length } : {}),
      baseline,
      baselineFile: o.baselineFile,
      level: o.level,
      requireAll: o.requireAll,
      profile,
      broker: { adapter: o.brokerName, serverInfo },
      seed: o.parameters.seed,
      startedAt,
      durationMs: Date.now() - started,
      reports: o.reports,
      provenance: provenanceOf(brokerProvenance(o.parameters, o.brokerName, serverInfo, o.imageId), profile.name, o.parameters.seed, startedAt),
      ...(historiesDir ? { evidence: { historiesDir, ...(stopped?.unfinished ? { unfinished: stopped.unfinished } : {}) } } : {}),
      // A stopped run's failures are not all there are: it writes no baseline, nor updates one.
      writeBaseline: stopped === undefined ? o.writeBaseline : undefined,
      baselineEntries: o.baselineEntries,
      ...(o.updateBaseline && stopped === undefined ? { updateBaseline: o.updateBaseline } : {}),
    });
  };
  /**
   * A run cut short concludes once, from the scenarios that finished (`stream` collected and judged
   * once, unless `judged` is that already), the others NOT RUN with why (exit 2): whichever ends it
   * first (a stop signal, a parallel worker that died) concludes, and anything that ends it after
   * waits for that conclusion instead of making a second.
   */
  let cutShort: Promise<void> | undefined;
  const concludeCutShort = (stream: readonly Envelope[], end: RunEnd, rewrite: boolean, judged?: JudgedStream): Promise<void> =>
    (cutShort ??= (async () => {
      stopProgress();
      const finished = judged ?? judgeStream(collectMessages(stream));
      const cause = `${end.cause} after ${finished.results.length} of ${ordered.length} scenario(s)`;
      const html = path.join(o.reports, "cucumber.html");
      // The formatters' files end where the stop cut them: the message stream is written whole, saying how the run ended.
      if (rewrite) writeStoppedMessages(messages, [...stream, stoppedRunFinished(finished.messages, cause)], html, cause);
      conclude([finished], { cause, unfinished: { each: end.each, keys: unfinished(ordered, finished.results).map(scenarioKey) } });
      if (rewrite) await writeStoppedHtml(html, stream);
    })());
  // A stop signal (a CI job's timeout, Ctrl+C; to this process or its whole group: the workers leave it to this process) ends the run where it is.
  const ignoreStop = onStop((signal) => concludeCutShort(envelopes.slice(), stoppedBy(signal), true));
  try {
    await runCucumber({ ...runConfiguration, support }, { cwd: ROOT }, (e) => envelopes.push(e));
  } finally {
    ignoreStop();
  }
  envelopes.length = 0;
  // Cucumber may end its run while a stop is being concluded (a worker ending with this process): that conclusion is the run's.
  if (cutShort) {
    await cutShort;
    return 2;
  }

  const stream = readEnvelopes(messages);
  const first = judgeStream(collectMessages(stream));
  const { results } = first;
  // Lint refused undefined and ambiguous steps already; should one get through, it is still the suite's fault.
  refuseBrokenSuite(results);
  // Cucumber ends its run when its workers have all ended, finished or not: one killed (by the OOM killer, a kill -9) leaves its scenario unfinished.
  if (unfinished(ordered, results).length > 0) {
    await concludeCutShort(stream, endedEarly(o.parallel), false, first);
    return 2;
  }
  const streams = [first];
  // --repeat N: the same scenarios again, each repetition on seeds of its own, into a message stream of its own.
  // A repetition cut short (a stop, a worker that died) concludes once, NOT RUN, on the repetitions before it, which finished.
  for (let repetition = 2; repetition <= (o.repeat ?? 1); repetition++) {
    let stopped: Promise<void> | undefined;
    const stop = (end: string) =>
      (stopped ??= (async () => {
        stopProgress();
        conclude(streams, { cause: `${end} during repetition ${repetition} of ${o.repeat}; the ${streams.length} repetition(s) before it are judged` });
      })());
    const file = await runRepetition(repetition, runConfiguration, support, o, (signal) => stop(stoppedBy(signal).cause));
    if (stopped) {
      await stop("the run was stopped");
      return 2;
    }
    const judged = judgeStream(readMessages(file));
    if (unfinished(ordered, judged.results).length > 0) {
      await stop(endedEarly(o.parallel).cause);
      return 2;
    }
    streams.push(judged);
  }
  const { code, run } = conclude(streams);
  if (o.writeDurations)
    process.stdout.write(`lomi-conformance: wrote the durations of ${writeDurations(o.writeDurations, results)} scenario(s) to ${o.writeDurations}\n`);
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

/**
 * One repetition after the first (--repeat): cucumber again on the same scenarios, the repetition
 * in the world parameters (its seeds derive from it), its message stream under repeats/N/ (answered).
 * A stop signal meanwhile goes to `stopped`.
 */
async function runRepetition(
  repetition: number,
  configuration: IRunConfiguration,
  support: ISupportCodeLibrary,
  o: SuiteOptions,
  stopped: (signal: StopSignal) => Promise<void>,
): Promise<string> {
  const file = path.join(o.reports, streamFiles(repetition).at(-1)!);
  mkdirSync(path.dirname(file), { recursive: true });
  const ignoreStop = onStop(stopped);
  try {
    await runCucumber(
      {
        ...configuration,
        support,
        runtime: { ...configuration.runtime, worldParameters: { ...o.parameters, repetition } },
        formats: { ...configuration.formats, files: { [file]: "message" } },
      },
      { cwd: ROOT },
    );
  } finally {
    ignoreStop();
  }
  return file;
}

/** The scenarios of this shard, balanced by the durations file; a shard left with none is refused (exit 2). */
function shardPart<T extends { uri: string; name: string }>(selection: readonly T[], shard: ShardSpec, durationsFile: string): T[] {
  const part = splitSelection(selection, readDurations(durationsFile), shard.count)[shard.index - 1];
  if (!part || part.length === 0)
    throw configError(
      `--shard ${shardText(shard)}: the selection has only ${selection.length} scenario(s), too few for ${shard.count} shards; use at most ${selection.length}`,
    );
  return part;
}

/** How a run cut short ended: the cause its headline gives, and what each scenario it did not finish says. */
interface RunEnd {
  cause: string;
  each: string;
}

const stoppedBy = (signal: StopSignal): RunEnd => ({
  cause: `the run was stopped by ${signal}`,
  each: `the run was stopped by ${signal} before this scenario finished`,
});

/** Cucumber's run ended with scenarios unfinished: with --parallel, a worker process ended (killed, or crashed) before its scenario finished. */
const endedEarly = (parallel: number): RunEnd =>
  parallel > 1
    ? {
        cause: "a parallel worker process ended (killed or crashed) before its scenario finished; the run ended",
        each: "a parallel worker process ended before this scenario finished",
      }
    : { cause: "cucumber ended the run before every scenario finished", each: "cucumber ended the run before this scenario finished" };

/** The end of a stopped run's message stream, as cucumber ends a run: not a success, and why. */
function stoppedRunFinished(run: MessageCollector, cause: string): Envelope {
  const testRunStartedId = run.runStarted?.id;
  return {
    testRunFinished: {
      success: false,
      message: `NOT RUN: ${cause}`,
      timestamp: TimeConversion.millisecondsSinceEpochToTimestamp(Date.now()),
      ...(testRunStartedId ? { testRunStartedId } : {}),
    },
  };
}

/** What a file is written as before it is moved over the formatter's (whose queued writes land in the file it had open, not in this one). */
const beside = (file: string) => `${file}.stopped`;

/**
 * A stopped run's message stream, written whole, and cucumber.html as a page saying the run was
 * stopped: cucumber's own page of what finished takes a moment to write (writeStoppedHtml), and a
 * second signal ends the process at once; this page is what stays then. Both synchronous, so the
 * reports are NOT RUN before the verdict is printed; a file half-written beside them goes on exit.
 */
function writeStoppedMessages(file: string, envelopes: readonly Envelope[], html: string, cause: string): void {
  process.once("exit", () => {
    for (const f of [beside(file), beside(html)]) rmSync(f, { force: true });
  });
  writeFileSync(beside(file), envelopes.map((e) => `${JSON.stringify(e)}\n`).join(""));
  renameSync(beside(file), file);
  const text = `NOT RUN: ${cause}. Cucumber's report of the scenarios that finished was being written here when the process ended; the other reports are whole.`;
  writeFileSync(
    beside(html),
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>NOT RUN</title></head><body><p>${text.replace(/[<>&]/g, " ")}</p></body></html>\n`,
  );
  renameSync(beside(html), html);
}

/** Cucumber's own HTML report of what a stopped run finished (its formatter writes only at the run's end), written beside the file and moved over it. */
async function writeStoppedHtml(file: string, envelopes: readonly Envelope[]): Promise<void> {
  await writeCucumberHtml(beside(file), envelopes);
  renameSync(beside(file), file);
}

/** The scenarios of the selection that did not finish. */
function unfinished(ordered: readonly ScenarioEntry[], finished: readonly ScenarioResult[]): ScenarioEntry[] {
  const done = new Set(finished.map((r) => `${r.uri}:${r.line}`));
  return ordered.filter((s) => !done.has(`${s.uri}:${s.line}`));
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
