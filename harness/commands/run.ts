import path from "node:path";
import { parseArgs } from "node:util";
import { checkTagSelection } from "../run/tag-selection.js";
import { parseShard } from "../shards/shard-option.js";
import type { Level } from "../report/rule-verdicts.js";
import type { Invocation } from "../report/run-record.js";
import type { Chosen } from "../run/scenario-choice.js";
import { brokerArgs, brokerOf, BROKER_OPTIONS } from "./broker.js";
import { writeNotRun } from "./not-run.js";
import { onStop } from "../suite/stop-signal.js";
import { commandLine, integer, OPTIONS, shown, UsageError, type OptionValues, type ParsedCommandLine } from "./options.js";

/**
 * A rerun's options: the earlier run's seed, broker, call budget and --parallel wherever the command
 * line names none of its own, so the failures are run again as they failed, as fast.
 */
function withRerunOptions(parsed: ParsedCommandLine, prior: { seed: number; invocation: Invocation | undefined }): OptionValues {
  const given = new Set(parsed.tokens.flatMap((t) => (t.kind === "option" ? [t.name] : [])));
  const values = { ...parsed.values };
  if (!given.has("seed")) values.seed = String(prior.seed);
  const named = BROKER_OPTIONS.some((k) => given.has(k));
  if (!prior.invocation) {
    // Reports of an older kit do not say which broker ran: the reference broker must not stand in for it unasked.
    if (!named) throw new UsageError("--rerun-failed: that run's reports do not record its broker options; name the broker (--broker-cmd, --broker-url, ...)");
    return values;
  }
  if (!named) {
    const recorded = parseArgs({ args: prior.invocation.broker, options: OPTIONS, strict: true }).values;
    for (const k of BROKER_OPTIONS) Object.assign(values, { [k]: recorded[k] });
  }
  if (!given.has("timeout-ms")) values["timeout-ms"] = String(prior.invocation.timeoutMs);
  if (!given.has("oracles")) values.oracles = prior.invocation.oracles ? "on" : "off";
  if (!given.has("retries") && prior.invocation.retries !== undefined) values.retries = String(prior.invocation.retries);
  // As many at once as the run it reruns, so its failures take no longer than they did there; a broker at a URL takes one at a time.
  if (!given.has("parallel") && prior.invocation.parallel !== undefined && values["broker-url"] === undefined) values.parallel = String(prior.invocation.parallel);
  return values;
}

/** A --tags that does not parse or selects nothing is refused before anything runs (the features load only then). */
export async function checkTags(tags: string | undefined): Promise<void> {
  if (tags !== undefined) checkTagSelection(tags, (await import("../run/feature-catalogue.js")).scenarioCatalogue());
}

/** The scenarios FILE:LINE words and --name choose within --tags, or undefined when only --tags chooses; refused (exit 2) when they choose none. */
async function chosenScenarios(values: OptionValues, places: readonly string[], among: Chosen | undefined) {
  const { chooseScenarios } = await import("../run/scenario-choice.js");
  const { FEATURES_DIR, scenarioCatalogue } = await import("../run/feature-catalogue.js");
  return chooseScenarios({ places, name: values.name, tags: values.tags, ...(among ? { among } : {}) }, scenarioCatalogue(), path.dirname(FEATURES_DIR));
}

/** A conformance run: the suite against the broker the options name, judged per rule, into the reports. */
export async function conformance(parsed: ParsedCommandLine, places: readonly string[] = []): Promise<number> {
  let { values } = parsed;
  const reports = path.resolve(values.reports);
  const startedAt = new Date().toISOString();
  const known = { broker: "not started", seed: Number.isSafeInteger(Number(values.seed)) ? Number(values.seed) : 1, level: values.level as Level, tags: values.tags };
  // Stopped before its scenarios start (in a preflight, loading the steps): reports saying so. Once they run, runSuite's own stop handler takes over.
  const ignoreStop = onStop(async (signal) => {
    const cause = `the run was stopped by ${signal} before any scenario started`;
    await writeNotRun(reports, cause, { ...known, startedAt, requireAll: values["require-all"] ?? false });
    process.stdout.write(`\nlomi-conformance: NOT RUN: ${cause}\n`);
  });
  try {
    // A rerun reads the earlier run before anything is cleared: its reports may be the ones this run replaces.
    const rerunDir = values["rerun-failed"];
    const rerun = rerunDir === undefined ? undefined : (await import("../suite/rerun.js")).rerunOfReports(path.resolve(rerunDir), shown(rerunDir));
    if (rerunDir !== undefined && rerun === undefined) {
      process.stdout.write(`lomi-conformance: the run in ${shown(rerunDir)} failed no scenario: nothing to rerun\n`);
      return 0;
    }
    if (rerun) values = withRerunOptions(parsed, rerun);
    if (!["must", "should", "may"].includes(known.level)) throw new UsageError(`--level must be must, should or may, not ${values.level}`);
    const seed = integer("--seed", values.seed);
    const parallel = integer("--parallel", values.parallel, 1, 64);
    const baselineEntries = values["baseline-entries"];
    if (baselineEntries !== "scenario" && baselineEntries !== "rule") throw new UsageError(`--baseline-entries must be scenario or rule, not ${baselineEntries}`);
    const timeoutMs = integer("--timeout-ms", values["timeout-ms"], 1);
    const retries = integer("--retries", values.retries, 0, 10);
    const repeat = integer("--repeat", values.repeat, 1, 100);
    if (repeat > 1 && retries > 0) throw new UsageError("--repeat goes without --retries: each repetition is a try of its own, and one that fails in some and passes in others is flaky");
    if (repeat > 1 && values.shard !== undefined) throw new UsageError("--repeat goes with a whole run, not with --shard (merge joins one run of each scenario)");
    const broker = brokerOf(values, seed, timeoutMs);
    const { name } = broker;
    // Every scenario's history is kept (in REPORTS/histories unless --histories says where): `lomi-conformance verify` judges them again.
    const parameters = { ...broker.parameters, historiesDir: broker.parameters.historiesDir ?? path.join(reports, (await import("../report/evidence.js")).DEFAULT_HISTORIES) };
    known.broker = parameters.adapter;
    const shard = values.shard === undefined ? undefined : parseShard(values.shard);
    // A shard judges part of the suite: the baseline for the whole run is written from the merge.
    if (shard && values["write-baseline"] !== undefined) throw new UsageError("--write-baseline goes with a whole run or with merge, not with --shard (a shard sees only its part)");
    if (shard && values["update-baseline"] !== undefined) throw new UsageError("--update-baseline goes with a run that is not a --shard (a shard sees only its part)");
    if (values["update-baseline"] !== undefined && values.baseline !== undefined && path.resolve(values.baseline) !== path.resolve(values["update-baseline"])) {
      throw new UsageError("--update-baseline FILE judges the run with FILE and rewrites it: leave out --baseline, or give the same file");
    }
    const baselineFile = values["update-baseline"] ?? values.baseline;
    if (!shard && values.durations !== undefined) throw new UsageError("--durations goes with --shard: it is what the shards are balanced by");
    if (parameters.adapter === "url" && parallel > 1) throw new UsageError("--broker-url runs one scenario at a time: one broker, one simulated Lomi; leave out --parallel");

    // The seed first, so a failing run can be replayed.
    process.stdout.write(`lomi-conformance: seed ${seed}, broker ${name}, reports in ${reports}\n`);
    // Cucumber, the adapters and the reports load only now: --help and a usage error answer at once.
    await checkTags(values.tags);
    const only = await chosenScenarios(values, places, rerun?.among);
    // A --mutant or --variant name that is neither: refused now, not by every scenario's set-up in turn.
    if (parameters.adapter === "in-process") await (await import("../adapters/index.js")).inProcessParts(parameters);
    const { clearReports, runSuite } = await import("../suite/run-suite.js");
    clearReports(reports);
    const imageId = parameters.adapter === "image" ? await (await import("../suite/image-preflight.js")).preflightImage(parameters.brokerImage) : undefined;
    const serverInfo =
      parameters.adapter === "url"
        ? await (await import("../suite/url-preflight.js")).preflightUrl(new URL(parameters.brokerUrl), parameters.nativePort, timeoutMs)
        : parameters.adapter === "command"
          ? await (await import("../suite/command-preflight.js")).preflightCommand({ line: parameters.brokerCommand, cwd: parameters.brokerCwd }, seed, timeoutMs)
          : undefined;
    return await runSuite({
      parameters,
      brokerName: name,
      serverInfo,
      tags: values.tags,
      parallel,
      reports,
      level: known.level,
      baselineFile: baselineFile && shown(baselineFile),
      ...(values["update-baseline"] !== undefined ? { updateBaseline: shown(values["update-baseline"]) } : {}),
      writeBaseline: values["write-baseline"] && shown(values["write-baseline"]),
      baselineEntries,
      requireAll: values["require-all"],
      ...(shard ? { shard } : {}),
      ...(only ? { only } : {}),
      command: commandLine(),
      invocation: { broker: brokerArgs(values), timeoutMs, oracles: values.oracles === "on", retries, parallel },
      retries,
      flakyOk: values["flaky-ok"],
      ...(rerun ? { rerunOf: rerun.rerunOf } : {}),
      ...(values.durations !== undefined ? { durationsFile: path.resolve(values.durations) } : {}),
      ...(values["write-durations"] !== undefined ? { writeDurations: shown(values["write-durations"]) } : {}),
      ...(repeat > 1 ? { repeat } : {}),
      ...(imageId ? { imageId } : {}),
    });
  } catch (error) {
    // runSuite writes its own reports once it has judged the rules; anything before that writes
    // reports saying the run never finished and why, then fails as before (exit 2).
    await writeNotRun(reports, error instanceof Error ? error.message : String(error), { ...known, startedAt, requireAll: values["require-all"] ?? false });
    throw error;
  } finally {
    ignoreStop();
  }
}
