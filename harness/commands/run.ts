import path from "node:path";
import { shardSpec } from "../shards/shard-option.js";
import type { Invocation } from "../report/run-record.js";
import type { Chosen } from "../run/scenario-choice.js";
import { BROKER, brokerArgs, brokerOf, RECORDED_BROKER_OPTIONS } from "./broker.js";
import { choice, command, flag, integer, read, text, type Parsed, type ValuesOf } from "./declaration.js";
import { writeNotRun } from "./not-run.js";
import { readOptions } from "./parse-command-line.js";
import { onStop } from "../suite/stop-signal.js";
import { commandLine, reportsOption, shown, UsageError } from "./options.js";

/** The options of a run (the broker's are BROKER's), as --help lists them. */
const RUN_OPTIONS = {
  ...BROKER,
  tags: text({ value: "EXPR", help: 'cucumber tag expression, e.g. "@IDEM-01 or @needs-crash", "not @needs-crash"' }),
  name: text({
    value: "REGEX",
    help: "only the scenarios whose names match (a JavaScript regular expression), of those --tags selects; judged as a partial run",
  }),
  "rerun-failed": text({
    value: "DIR",
    help:
      "only the scenarios that failed in the run whose reports are in DIR (those whose rules an earlier step left unjudged included), with its seed, broker options and --parallel unless given; " +
      "with nothing left failing there, exits 0 at once",
  }),
  retries: integer({
    value: "N",
    max: 10,
    default: 0,
    help:
      "run a failed scenario again, up to N times, each on a fresh broker and store (the scenario's seed, then seeds derived from it); one that fails, then passes, is flaky: " +
      "every report lists each attempt's seed and replay command, and a rule at the level with a flaky scenario fails the gate",
  }),
  repeat: integer({
    value: "N",
    min: 1,
    max: 100,
    default: 1,
    help: "run every selected scenario N times, each repetition on seeds of its own (REPORTS/repeats/K/messages.ndjson): one that fails in some and passes in others is flaky, and each rule reports pass^N. Not with --retries or --shard",
  }),
  "flaky-ok": flag({ help: "a flaky rule passes the gate (the reports still say it is flaky)" }),
  "scenario-seed": integer({ value: "N", max: 2 ** 32 - 1, help: "each scenario's first attempt takes seed N (a flaky attempt's replay line)" }),
  parallel: integer({
    value: "N",
    min: 1,
    max: 64,
    default: 1,
    help: "worker processes (1 with --broker-url); the feature files of the longest scenarios (fixtures/durations.json) are handed out first",
  }),
  reports: reportsOption("DIR", "where reports go"),
  seed: integer({ value: "N", default: 1, help: "run seed; each scenario's seed derives from it" }),
  baseline: text({
    value: "FILE",
    help: "expected failures, by rule or scenario (docs/implementers.md); a baselined failure does not fail the run, a baselined entry that passes does (stale)",
  }),
  "write-baseline": text({
    value: "FILE",
    help: "after the run, write a baseline that expects today's failures, each with a reason to fill in (the run itself is judged as without it)",
  }),
  "update-baseline": text({
    value: "FILE",
    help:
      "judge the run with the baseline FILE, then rewrite it: stale entries dropped, new failures added with a placeholder reason (by --baseline-entries), " +
      "every other entry kept with its reason (those a partial run did not reach too)",
  }),
  "baseline-entries": choice({
    choices: ["scenario", "rule"],
    default: "scenario",
    help: "scenario: one entry per failing scenario, so one defect baselines only what it breaks; rule: one entry per failing rule, every scenario of it",
  }),
  level: choice({ choices: ["must", "should", "may"], default: "must", help: "which rules must pass to be conformant" }),
  "require-all": flag({
    help: "every rule must be judged: a rule this broker's profile cannot judge (two connections over stdio; crashes and fault hooks at a URL) fails the run",
  }),
  "timeout-ms": integer({
    value: "N",
    min: 1,
    default: 10_000,
    help: "per broker call, and the budget for waiting on a settlement; a step may take this plus 5 s",
  }),
  histories: text({
    value: "DIR",
    help: "where each scenario's history (lomi-history/1, docs/explore.md) goes, one file a scenario (default REPORTS/histories); `lomi-conformance check FILE` judges one again",
  }),
  oracles: choice({
    choices: ["on", "off"],
    default: "on",
    help: "after each scenario, read what the agents were told and judge the whole history by every oracle (harness/oracles/, docs/writing-scenarios.md); off judges by the steps alone, to see what the oracles add",
  }),
  shard: read({
    value: "K/N",
    schema: shardSpec,
    help:
      "run part K of N (1 ≤ K ≤ N) of the selected scenarios, balanced by their measured durations; its reports folder gets a shard manifest (shard.json) for `lomi-conformance merge`. " +
      "Every shard takes the same options but --shard",
  }),
  durations: text({ value: "FILE", help: "with --shard: the durations to balance by (default: the kit's, fixtures/durations.json)" }),
  "write-durations": text({ value: "FILE", help: "after the run, write each scenario's duration into FILE (its other entries kept)" }),
};
type RunValues = ValuesOf<typeof RUN_OPTIONS>;

/**
 * A rerun's options: the earlier run's seed, broker, call budget and --parallel wherever the command
 * line names none of its own, so the failures are run again as they failed, as fast.
 */
function withRerunOptions(parsed: Parsed<typeof RUN_OPTIONS>, prior: { seed: number; invocation: Invocation | undefined }): RunValues {
  const values = { ...parsed.values };
  const named = parsed.given;
  if (!named.has("seed")) values.seed = prior.seed;
  const brokerNamed = RECORDED_BROKER_OPTIONS.some((k) => named.has(k));
  if (!prior.invocation) {
    // Reports of an older kit do not say which broker ran: the reference broker must not stand in for it unasked.
    if (!brokerNamed)
      throw new UsageError("--rerun-failed: that run's reports do not record its broker options; name the broker (--broker-cmd, --broker-url, ...)");
    return values;
  }
  if (!brokerNamed) {
    const recorded = readOptions(BROKER, prior.invocation.broker);
    for (const k of RECORDED_BROKER_OPTIONS) Object.assign(values, { [k]: recorded[k] });
  }
  if (!named.has("timeout-ms")) values["timeout-ms"] = prior.invocation.timeoutMs;
  if (!named.has("oracles")) values.oracles = prior.invocation.oracles ? "on" : "off";
  if (!named.has("retries") && prior.invocation.retries !== undefined) values.retries = prior.invocation.retries;
  // As many at once as the run it reruns, so its failures take no longer than they did there; a broker at a URL takes one at a time.
  if (!named.has("parallel") && prior.invocation.parallel !== undefined && values["broker-url"] === undefined) values.parallel = prior.invocation.parallel;
  return values;
}

/** A --tags that does not parse or selects nothing is refused before anything runs (the features load only then). */
export async function checkTags(tags: string | undefined): Promise<void> {
  if (tags !== undefined) (await import("../run/tag-selection.js")).checkTagSelection(tags, (await import("../run/feature-catalogue.js")).scenarioCatalogue());
}

/** `features/x.feature` or `features/x.feature:12` (`:12:40` for several): a word of a run that names scenarios, as cucumber takes them. */
export const isFeaturePlace = (word: string) => /\.feature(:\d+)*$/.test(word);

/** The scenarios FILE:LINE words and --name choose within --tags, or undefined when only --tags chooses; refused (exit 2) when they choose none. */
async function chosenScenarios(values: RunValues, places: readonly string[], among: Chosen | undefined) {
  const { chooseScenarios } = await import("../run/scenario-choice.js");
  const { FEATURES_DIR, scenarioCatalogue } = await import("../run/feature-catalogue.js");
  return chooseScenarios({ places, name: values.name, tags: values.tags, ...(among ? { among } : {}) }, scenarioCatalogue(), path.dirname(FEATURES_DIR));
}

/** A conformance run: the suite against the broker the options name, judged per rule, into the reports; FILE:LINE operands choose scenarios. */
async function conformance(parsed: Parsed<typeof RUN_OPTIONS>): Promise<number> {
  let { values } = parsed;
  const reports = path.resolve(values.reports);
  const startedAt = new Date().toISOString();
  const known = { broker: "not started", seed: values.seed, level: values.level, tags: values.tags, requireAll: values["require-all"] };
  // Stopped before its scenarios start (in a preflight, loading the steps): reports saying so. Once they run, runSuite's own stop handler takes over.
  const ignoreStop = onStop(async (signal) => {
    const cause = `the run was stopped by ${signal} before any scenario started`;
    await writeNotRun(reports, cause, { ...known, startedAt });
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
    const { seed, parallel, retries, repeat, shard } = values;
    const timeoutMs = values["timeout-ms"];
    known.seed = seed;
    if (repeat > 1 && retries > 0)
      throw new UsageError("--repeat goes without --retries: each repetition is a try of its own, and one that fails in some and passes in others is flaky");
    if (repeat > 1 && shard !== undefined) throw new UsageError("--repeat goes with a whole run, not with --shard (merge joins one run of each scenario)");
    // Every scenario's history is kept (in REPORTS/histories unless --histories says where): `lomi-conformance verify` judges them again.
    const historiesDir = path.resolve(values.histories ?? path.join(reports, (await import("../report/evidence.js")).DEFAULT_HISTORIES));
    const replaySeed = values["scenario-seed"];
    const { parameters, name } = brokerOf(values, {
      seed,
      timeoutMs,
      oracles: values.oracles === "on",
      historiesDir,
      ...(replaySeed !== undefined ? { replaySeed } : {}),
    });
    known.broker = parameters.adapter;
    // A shard judges part of the suite: the baseline for the whole run is written from the merge.
    if (shard && values["write-baseline"] !== undefined)
      throw new UsageError("--write-baseline goes with a whole run or with merge, not with --shard (a shard sees only its part)");
    if (shard && values["update-baseline"] !== undefined)
      throw new UsageError("--update-baseline goes with a run that is not a --shard (a shard sees only its part)");
    if (values["update-baseline"] !== undefined && values.baseline !== undefined && path.resolve(values.baseline) !== path.resolve(values["update-baseline"])) {
      throw new UsageError("--update-baseline FILE judges the run with FILE and rewrites it: leave out --baseline, or give the same file");
    }
    const baselineFile = values["update-baseline"] ?? values.baseline;
    if (!shard && values.durations !== undefined) throw new UsageError("--durations goes with --shard: it is what the shards are balanced by");
    if (parameters.adapter === "url" && parallel > 1)
      throw new UsageError("--broker-url runs one scenario at a time: one broker, one simulated Lomi; leave out --parallel");

    // The seed first, so a failing run can be replayed.
    process.stdout.write(`lomi-conformance: seed ${seed}, broker ${name}, reports in ${reports}\n`);
    // Cucumber, the adapters and the reports load only now: --help and a usage error answer at once.
    await checkTags(values.tags);
    const only = await chosenScenarios(values, parsed.operands, rerun?.among);
    // A --mutant or --variant name that is neither: refused now, not by every scenario's set-up in turn.
    if (parameters.adapter === "in-process") await (await import("../adapters/index.js")).inProcessParts(parameters);
    const { clearReports, runSuite } = await import("../suite/run-suite.js");
    clearReports(reports);
    const imageId = parameters.adapter === "image" ? await (await import("../suite/image-preflight.js")).preflightImage(parameters.brokerImage) : undefined;
    const serverInfo =
      parameters.adapter === "url"
        ? await (await import("../suite/url-preflight.js")).preflightUrl(new URL(parameters.brokerUrl), parameters.nativePort, timeoutMs)
        : parameters.adapter === "command"
          ? await (
              await import("../suite/command-preflight.js")
            ).preflightCommand({ line: parameters.brokerCommand, cwd: parameters.brokerCwd }, seed, timeoutMs)
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
      baselineEntries: values["baseline-entries"],
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
    await writeNotRun(reports, error instanceof Error ? error.message : String(error), { ...known, startedAt });
    throw error;
  } finally {
    ignoreStop();
  }
}

/** The conformance run: lomi-conformance with no command word. */
export const RUN = command({
  name: undefined,
  summary: "run the Lomi conformance suite against a broker and report per rule",
  operands: { count: "any", shown: "[features/FILE.feature[:LINE]…]" },
  forms: [
    {
      usage: "lomi-conformance [options] [features/FILE.feature[:LINE]…]",
      says: "a conformance run; FILE:LINE runs the scenario at or around that line (as cucumber takes it), combinable with --tags and --name",
    },
    { usage: "lomi-conformance COMMAND [operands] [options]", says: "one of the commands below" },
  ],
  options: RUN_OPTIONS,
  examples: [
    { line: 'lomi-conformance --broker-cmd "path/to/your-broker --stdio"', says: "a stdio MCP server the harness starts, kills and restarts" },
    { line: 'lomi-conformance --tags "@IDEM-01 or @CANCEL-01" --retries 2', says: "two rules' scenarios; a failure runs again on a fresh broker" },
    { line: "lomi-conformance --rerun-failed reports", says: "only what failed in that run, on its seed and broker" },
  ],
  notes:
    "Exit codes: 0 conformant over the run's profile (every rule it judged passed, or failed only as the\n" +
    "baseline expects; the rules it could not judge are named), 1 a rule failed, a baseline entry is stale,\n" +
    "or (with --require-all) a rule was not judged, 2 harness or configuration error, a typo in a feature\n" +
    "file included (the message names the file and line).\n" +
    "Reports: conformance.html, conformance.md, conformance.json, conformance.svg, cucumber.html, junit.xml, messages.ndjson.",
  run: conformance,
});
