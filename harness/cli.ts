import path from "node:path";
import { parseArgs } from "node:util";
import { shellSyntaxIn } from "./text/command-line.js";
import { HarnessError } from "./harness-error.js";
import { suggestOption, suggestWord } from "./text/option-suggestion.js";
import { isFeaturePlace } from "./suite/scenario-choice.js";
import { checkTagSelection } from "./suite/tag-selection.js";
import { parseShard } from "./shards/shard-option.js";
import { exitOnStopSignals } from "./suite/stop-signal.js";
import type { Level } from "./report/rule-verdicts.js";
import type { RunParameters } from "./suite/run-parameters.js";
import type { Invocation } from "./report/run-record.js";

const DEFAULT_NATIVE_PORT = 4545;

const HELP = `lomi-conformance — run the Lomi conformance suite against a broker and report per rule

Usage:
  lomi-conformance [options] [features/FILE.feature[:LINE]…]
                                  a conformance run; FILE:LINE runs the scenario at or around
                                  that line (as cucumber takes it), combinable with --tags and --name
  lomi-conformance steps          print the step vocabulary, with an example of each step
  lomi-conformance explore [--seed N] [--runs K] [--steps M] [--time-budget S] [broker options]
                                  seeded model-based runs with faults, each history judged by the
                                  checker; a violation is shrunk and printed with its replay command
  lomi-conformance merge DIR… [--reports OUT]
                                  the report folders of a run's shards (--shard), or of an explore
                                  campaign's parts, as one run: one verdict, one exit code
                                  (lomi-conformance merge --help)
  lomi-conformance compare BASE HEAD [--reports OUT]
                                  what changed between two runs' reports (a base branch's and a pull
                                  request's; a run's or a merge of its shards): per rule and per
                                  scenario newly failing, fixed, still failing, newly not judged,
                                  flaky; on the console and into OUT (default HEAD)/compare.md (a PR
                                  comment) and compare.json; exit 1 when anything newly fails
  lomi-conformance check HISTORY.jsonl [--report FILE.md|FILE.html] [--scenario]
                                  the checker alone, on a recorded history (docs/explore.md): what
                                  it judged and what it could not, and why; --report writes the
                                  history with the violating records marked; --scenario prints a
                                  Gherkin skeleton of each violating exchange
  lomi-conformance record --history FILE -- CMD [ARGS…]
  lomi-conformance record --history FILE --listen PORT --to URL
                                  between a real MCP client and a broker, records their traffic
                                  for check, as a stdio server or a loopback HTTP proxy
                                  (lomi-conformance record --help)
  lomi-conformance lint           the features, the rules, the source map and the generated docs
                                  checked with no broker, in seconds: every authoring mistake at
                                  once, file:line each (exit 2), with the step, rule or sentence
                                  meant; every conformance run lints first
  lomi-conformance coverage [--reports DIR] [--json]
                                  every sentence of the source document, with the rules that judge
                                  it, their scenarios and the verdicts of the run in DIR (default
                                  reports/), or why it binds no broker
  lomi-conformance teeth [--tags EXPR] [--mutant A,B] [--jobs N]
                                  every mutant (mutants/) against the selected scenarios, in-process:
                                  which mutant breaks which rule, and the MUST rules none breaks
                                  without a reason in docs/teeth.json (exit 1); writes
                                  teeth.json and teeth.md under REPORTS/teeth
  lomi-conformance catalogue [--json]
                                  every tool a broker serves: its input, its reply's data, its
                                  refusals and a real call (docs/catalogue.md); --json gives each
                                  tool's input and output JSON Schema as the harness checks them

Broker under test (one of):
  --broker reference     the reference broker in this process (default)
  --mutant NAME          in this process, a deliberately broken broker of mutants/ (the suite must fail it)
  --variant NAME         in this process, a legal variant of variants/ (the suite must pass it)
  --broker-cmd "CMD"     a stdio MCP server the harness starts, kills (SIGKILL, its whole process
                         group) and restarts; it gets LOMI_NATIVE_URL, LOMI_STORE_PATH and LOMI_SEED.
                         No shell reads it: for > | && ; $VAR or VAR=value, give "sh -c '…'"
  --broker-url URL       a broker already running, over Streamable HTTP (e.g. http://127.0.0.1:3333/mcp).
                         Start it with LOMI_NATIVE_URL=http://127.0.0.1:PORT: the harness serves the
                         simulated Lomi there (--native-port). Crash scenarios are not applicable.
  --native-port N        with --broker-url: where the simulated Lomi listens (default ${DEFAULT_NATIVE_PORT})
  --broker-token TOKEN   with --broker-url: the broker's bearer token (default: $LOMI_BROKER_TOKEN)
  --broker-image IMAGE   a broker image, run with testcontainers on the host network: it gets
                         LOMI_NATIVE_URL, LOMI_STORE_PATH (under a mounted /lomi-store), LOMI_SEED and
                         LOMI_MCP_PORT, and serves http://127.0.0.1:$LOMI_MCP_PORT/mcp. A crash kills the container.
  --broker-faults        the broker (--broker-cmd or --broker-image) honours LOMI_BROKER_FAULTS
                         (fail-reserve, crash-after-reserve, crash-after-dispatch, crash-before-settle);
                         without it, scenarios that need fault hooks are not applicable

Options:
  --tags EXPR            cucumber tag expression, e.g. "@IDEM-01 or @needs-crash", "not @needs-crash"
  --name REGEX           only the scenarios whose names match (a JavaScript regular expression), of
                         those --tags selects; judged as a partial run
  --rerun-failed DIR     only the scenarios that failed in the run whose reports are in DIR (those whose
                         rules an earlier step left unjudged included), with its seed and broker
                         options unless given; with nothing left failing there, exits 0 at once
  --retries N            run a failed scenario again, up to N times, each on a fresh broker and store (the
                         scenario's seed, then seeds derived from it); one that fails, then passes, is
                         flaky: every report lists each attempt's seed and replay command, and a rule
                         at the level with a flaky scenario fails the gate (default 0)
  --flaky-ok             a flaky rule passes the gate (the reports still say it is flaky)
  --scenario-seed N      each scenario's first attempt takes seed N (a flaky attempt's replay line)
  --parallel N           worker processes (default 1; 1 with --broker-url); the feature files of the
                         longest scenarios (fixtures/durations.json) are handed out first
  --reports DIR          where reports go (default reports/)
  --seed N               run seed; each scenario's seed derives from it (default 1)
  --baseline FILE        expected failures, by rule or scenario (docs/implementers.md); a baselined
                         failure does not fail the run, a baselined entry that passes does (stale)
  --write-baseline FILE  after the run, write a baseline that expects today's failures, each with a
                         reason to fill in (the run itself is judged as without it)
  --update-baseline FILE judge the run with the baseline FILE, then rewrite it: stale entries dropped,
                         new failures added with a placeholder reason (by --baseline-entries), every
                         other entry kept with its reason (those a partial run did not reach too)
  --baseline-entries E   scenario (default): one entry per failing scenario, so one defect baselines
                         only what it breaks | rule: one entry per failing rule, every scenario of it
  --level L              must | should | may: which rules must pass to be conformant (default must)
  --require-all          every rule must be judged: a rule this broker's profile cannot judge (two
                         connections over stdio; crashes and fault hooks at a URL) fails the run
  --timeout-ms N         per broker call, and the budget for waiting on a settlement (default 10000);
                         a step may take this plus 5 s
  --histories DIR        write each scenario's history (lomi-history/1, docs/explore.md) into DIR,
                         one file a scenario; \`lomi-conformance check FILE\` judges one again
  --oracles on|off       after each scenario, read what the agents were told and judge the whole
                         history by every oracle (harness/oracles/, docs/writing-scenarios.md); off
                         judges by the steps alone, to see what the oracles add (default on)
  --shard K/N            run part K of N (1 ≤ K ≤ N) of the selected scenarios, balanced by their
                         measured durations; its reports folder gets a shard manifest (shard.json)
                         for \`lomi-conformance merge\`. Every shard takes the same options but --shard
  --durations FILE       with --shard: the durations to balance by (default: the kit's, fixtures/durations.json)
  --write-durations FILE after the run, write each scenario's duration into FILE (its other entries kept)
  -h, --help             this text

Explore options (docs/explore.md):
  --runs K               runs (default 100)        --steps M          steps a run at most (default 60)
  --time-budget S        no new run after S seconds, shrinking included (default 100)
  --replay PATH --replay-path RP   replay one case exactly, as a violation's replay line says
  --regressions FILE     add a found case to FILE (the kit's list is fixtures/explore-seeds.json)
  --shard K/N            explore part K of N of the campaign --seed and --runs describe: the parts'
                         runs are disjoint, --runs counts one part's; merge joins the parts' reports

Exit codes: 0 conformant over the run's profile (every rule it judged passed, or failed only as the
baseline expects; the rules it could not judge are named), 1 a rule failed, a baseline entry is stale,
or (with --require-all) a rule was not judged, 2 harness or configuration error, a typo in a feature
file included (the message names the file and line).
Reports: conformance.html, conformance.md, conformance.json, conformance.svg, cucumber.html, junit.xml, messages.ndjson.`;

const MERGE_HELP = `lomi-conformance merge — a run's shards, or an explore campaign's parts, as one run

Usage:
  lomi-conformance merge DIR… [--reports OUT] [--write-baseline FILE] [--write-durations FILE]

DIR… are the report folders the parts wrote (their --reports), in any order:
  conformance shards (each with shard.json, from lomi-conformance --shard K/N): their cucumber
    messages become one run's, judged as an unsharded run on the same seed is, into OUT:
    conformance.json/.md/.html/.svg, junit.xml, cucumber.html and messages.ndjson, with one verdict
    and one profile; the reports show each shard's wall time and the longest one.
  explore parts (each with explore.json, from lomi-conformance explore --shard K/N): runs, steps and
    faults summed per kind, every violation kept with its replay line, into OUT/explore.json and .md.

Options:
  --reports OUT          where the merged reports go (default reports/)
  --write-baseline FILE  (shards) write the baseline that expects the merged run's failures
  --update-baseline FILE judge the run with the baseline FILE, then rewrite it: stale entries dropped,
                         new failures added with a placeholder reason (by --baseline-entries), every
                         other entry kept with its reason (those a partial run did not reach too)
  --baseline-entries E   scenario (default) | rule, as for a run
  --write-durations FILE (shards) write each scenario's duration into FILE, to balance the next shards by

Exit codes, as a run's: 0 conformant (explore: no violation), 1 a rule failed (explore: a violation),
2 the parts do not make one run: a shard or part missing, given twice, or of another run (another kit
version, seed, broker, tag expression or shard count), named in the message; the reports say NOT RUN.`;

class UsageError extends Error {}

/** This run's command line, quoted where a shell would need it: what a report says was run. */
const commandLine = () => ["lomi-conformance", ...process.argv.slice(2)].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");

function integer(name: string, text: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, not ${text}`);
  return n;
}

const OPTIONS = {
  broker: { type: "string" },
  "broker-cmd": { type: "string" },
  "broker-url": { type: "string" },
  "broker-token": { type: "string" },
  "native-port": { type: "string" },
  "broker-image": { type: "string" },
  "broker-faults": { type: "boolean", default: false },
  tags: { type: "string" },
  name: { type: "string" },
  "rerun-failed": { type: "string" },
  retries: { type: "string", default: "0" },
  "flaky-ok": { type: "boolean", default: false },
  "scenario-seed": { type: "string" },
  parallel: { type: "string", default: "1" },
  reports: { type: "string", default: "reports" },
  seed: { type: "string", default: "1" },
  baseline: { type: "string" },
  level: { type: "string", default: "must" },
  "require-all": { type: "boolean", default: false },
  "timeout-ms": { type: "string", default: "10000" },
  "write-baseline": { type: "string" },
  "update-baseline": { type: "string" },
  "baseline-entries": { type: "string", default: "scenario" },
  runs: { type: "string", default: "100" },
  steps: { type: "string", default: "60" },
  "time-budget": { type: "string", default: "100" },
  replay: { type: "string" },
  "replay-path": { type: "string" },
  mutant: { type: "string" },
  variant: { type: "string" },
  oracles: { type: "string", default: "on" },
  histories: { type: "string" },
  json: { type: "boolean", default: false },
  regressions: { type: "string" },
  shard: { type: "string" },
  durations: { type: "string" },
  "write-durations": { type: "string" },
  jobs: { type: "string", default: "2" },
  report: { type: "string" },
  scenario: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

function parse() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS, strict: true, tokens: true });
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    if (!unknown) throw new UsageError((error as Error).message);
    const suggestion = suggestOption(unknown, Object.keys(OPTIONS));
    throw new UsageError(`unknown option ${unknown}${suggestion ? `; did you mean ${suggestion}?` : ""}`);
  }
}

/** The broker the options name, as run parameters and a name for the reports. */
function brokerOf(values: ReturnType<typeof parse>["values"], seed: number, timeoutMs: number): { parameters: RunParameters; name: string } {
  const chosen = (["broker", "broker-cmd", "broker-url", "broker-image", "mutant", "variant"] as const).filter((k) => values[k] !== undefined);
  if (values.oracles !== "on" && values.oracles !== "off") throw new UsageError(`--oracles must be on or off, not ${values.oracles}`);
  const historiesDir = values.histories === undefined ? undefined : path.resolve(values.histories);
  // What every broker's run parameters carry, whatever the adapter.
  const replaySeed = values["scenario-seed"] === undefined ? undefined : integer("--scenario-seed", values["scenario-seed"], 0, 2 ** 32 - 1);
  const common = { seed, timeoutMs, oracles: values.oracles === "on", ...(historiesDir ? { historiesDir } : {}), ...(replaySeed !== undefined ? { replaySeed } : {}) };
  if (chosen.length > 1) throw new UsageError(`name one broker, not ${chosen.map((k) => `--${k}`).join(" and ")}`);
  if (values.broker !== undefined && values.broker !== "reference") throw new UsageError(`--broker takes only "reference"; use --broker-cmd, --broker-url or --broker-image for another broker`);
  if (values["native-port"] !== undefined && values["broker-url"] === undefined) throw new UsageError("--native-port goes with --broker-url");
  if (values["broker-token"] !== undefined && values["broker-url"] === undefined) throw new UsageError("--broker-token goes with --broker-url");
  // Through the environment, so worker processes get it and no report records it.
  if (values["broker-token"] !== undefined) process.env.LOMI_BROKER_TOKEN = values["broker-token"];
  const brokerFaults = values["broker-faults"];
  if (brokerFaults && values["broker-cmd"] === undefined && values["broker-image"] === undefined) {
    throw new UsageError("--broker-faults goes with --broker-cmd or --broker-image: the reference broker in-process has its hooks, a broker at a URL cannot be armed");
  }
  if (values["broker-cmd"] !== undefined) {
    if (values["broker-cmd"].trim() === "") throw new UsageError("--broker-cmd needs a command");
    const shell = shellSyntaxIn(values["broker-cmd"]);
    if (shell) throw new UsageError(shell);
    return { parameters: { adapter: "command", brokerCommand: values["broker-cmd"], brokerCwd: process.cwd(), brokerFaults, ...common }, name: `command: ${values["broker-cmd"]}` };
  }
  if (values["broker-url"] !== undefined) {
    let url: URL;
    try {
      url = new URL(values["broker-url"]);
    } catch {
      throw new UsageError(`--broker-url must be a URL such as http://127.0.0.1:3333/mcp, not ${values["broker-url"]}`);
    }
    if (!["http:", "https:"].includes(url.protocol)) throw new UsageError(`--broker-url must be http(s), not ${url.protocol}`);
    const nativePort = integer("--native-port", values["native-port"] ?? String(DEFAULT_NATIVE_PORT), 1, 65535);
    return { parameters: { adapter: "url", brokerUrl: url.href, nativePort, ...common }, name: `url: ${url.href} (simulated Lomi on 127.0.0.1:${nativePort})` };
  }
  if (values["broker-image"] !== undefined) {
    return { parameters: { adapter: "image", brokerImage: values["broker-image"], brokerFaults, ...common }, name: `image: ${values["broker-image"]}` };
  }
  if (values.mutant !== undefined) return { parameters: { adapter: "in-process", mutant: values.mutant, ...common }, name: `mutant ${values.mutant} (in-process)` };
  if (values.variant !== undefined) return { parameters: { adapter: "in-process", variant: values.variant, ...common }, name: `variant ${values.variant} (in-process)` };
  return { parameters: { adapter: "in-process", ...common }, name: "reference broker (in-process)" };
}

/** The options that name the broker, as the command line gave them: recorded for a rerun, printed in a replay line. */
const BROKER_OPTIONS = ["broker", "broker-cmd", "broker-url", "native-port", "broker-image", "broker-faults", "mutant", "variant"] as const;
function brokerArgs(values: ReturnType<typeof parse>["values"]): string[] {
  return BROKER_OPTIONS.flatMap((k) => {
    const value = values[k];
    return value === undefined || value === false ? [] : value === true ? [`--${k}`] : [`--${k}`, value];
  });
}

/**
 * A rerun's options: the earlier run's seed, broker and call budget wherever the command line names
 * none of its own, so the failures are run again as they failed.
 */
function withRerunOptions(parsed: ReturnType<typeof parse>, prior: { seed: number; invocation: Invocation | undefined }): ReturnType<typeof parse>["values"] {
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
  return values;
}

/** explore loads only when asked for: it brings fast-check and the mutants. */
async function explore(values: ReturnType<typeof parse>["values"]): Promise<number> {
  const { exploreCommand } = await import("./explore/command.js");
  const seed = integer("--seed", values.seed, 0, 2 ** 31 - 1);
  const { parameters, name } = brokerOf(values, seed, integer("--timeout-ms", values["timeout-ms"], 1));
  if ((values.replay === undefined) !== (values["replay-path"] === undefined)) throw new UsageError("--replay and --replay-path go together, as the replay line prints them");
  const replayArgs = [...brokerArgs(values), "--reports", values.reports];
  return exploreCommand({
    seed,
    runs: integer("--runs", values.runs, 1),
    steps: integer("--steps", values.steps, 1, 10_000),
    timeBudgetS: integer("--time-budget", values["time-budget"], 1),
    parameters,
    brokerName: name,
    replayArgs,
    replay: values.replay === undefined ? undefined : { path: values.replay, replayPath: values["replay-path"]! },
    reports: path.resolve(values.reports),
    regressions: values.regressions && path.resolve(values.regressions),
    ...(values.shard !== undefined ? { part: parseShard(values.shard) } : {}),
    out: (t) => process.stdout.write(t),
    tty: process.stdout.isTTY === true,
  });
}

/** The commands other than a conformance run; a conformance run takes no positional word. */
const COMMANDS = ["steps", "explore", "check", "record", "catalogue", "coverage", "teeth", "lint", "merge", "compare"];

/**
 * Where a conformance run writes its reports, read from the command line as it stands even when it
 * does not parse: a CI step that shows the reports then shows why the run never started.
 */
function reportsDirOf(argv: readonly string[]): string {
  let dir: string = OPTIONS.reports.default;
  argv.forEach((arg, i) => {
    if (arg === "--reports" && argv[i + 1] !== undefined) dir = argv[i + 1]!;
    else if (arg.startsWith("--reports=")) dir = arg.slice("--reports=".length);
  });
  return path.resolve(dir);
}

/**
 * Reports that say the run never judged anything, and why (a bad option, a --tags that selects
 * nothing, a failed preflight, a harness error before any verdict): every report is there, so a CI
 * gate that publishes them shows the cause. Earlier reports are removed first: none may pass for this run.
 */
async function writeNotRun(reports: string, cause: string, run: { broker: string; seed: number; level: Level; tags: string | undefined; startedAt: string; requireAll: boolean }): Promise<void> {
  const { clearReports } = await import("./suite/run-suite.js");
  const { notRunSummary, writeReports } = await import("./report/write-reports.js");
  clearReports(reports);
  writeReports(reports, notRunSummary(cause, { broker: { adapter: run.broker, serverInfo: undefined }, seed: run.seed, level: run.level, tags: run.tags, startedAt: run.startedAt, requireAll: run.requireAll, command: commandLine() }, run.broker), [], () => undefined);
}

/**
 * A file the user named, as the reports show it: relative to where the kit runs (the repository's
 * root in CI), so a summary or pull-request comment carries no path of the runner.
 */
const shown = (file: string) => path.relative(process.cwd(), path.resolve(file)) || ".";

/** A --tags that does not parse or selects nothing is refused before anything runs (the features load only then). */
async function checkTags(tags: string | undefined): Promise<void> {
  if (tags !== undefined) checkTagSelection(tags, (await import("./suite/feature-catalogue.js")).scenarioCatalogue());
}

/** The scenarios FILE:LINE words and --name choose within --tags, or undefined when only --tags chooses; refused (exit 2) when they choose none. */
async function chosenScenarios(values: ReturnType<typeof parse>["values"], places: readonly string[], among: { names: ReadonlySet<string>; label: string } | undefined) {
  const { chooseScenarios } = await import("./suite/scenario-choice.js");
  const { FEATURES_DIR, scenarioCatalogue } = await import("./suite/feature-catalogue.js");
  return chooseScenarios({ places, name: values.name, tags: values.tags, ...(among ? { among } : {}) }, scenarioCatalogue(), path.dirname(FEATURES_DIR));
}

/** A conformance run: the suite against the broker the options name, judged per rule, into the reports. */
async function conformance(parsed: ReturnType<typeof parse>, places: readonly string[] = []): Promise<number> {
  let { values } = parsed;
  const reports = path.resolve(values.reports);
  const startedAt = new Date().toISOString();
  const known = { broker: "not started", seed: Number.isSafeInteger(Number(values.seed)) ? Number(values.seed) : 1, level: values.level as Level, tags: values.tags };
  try {
    // A rerun reads the earlier run before anything is cleared: its reports may be the ones this run replaces.
    const rerunDir = values["rerun-failed"];
    const rerun = rerunDir === undefined ? undefined : (await import("./suite/rerun.js")).rerunOfReports(path.resolve(rerunDir), shown(rerunDir));
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
    const { parameters, name } = brokerOf(values, seed, timeoutMs);
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
    if (parameters.adapter === "in-process") await (await import("./adapters/index.js")).inProcessParts(parameters);
    const { clearReports, runSuite } = await import("./suite/run-suite.js");
    clearReports(reports);
    if (parameters.adapter === "image") await (await import("./suite/image-preflight.js")).preflightImage(parameters.brokerImage);
    const serverInfo =
      parameters.adapter === "url"
        ? await (await import("./suite/url-preflight.js")).preflightUrl(new URL(parameters.brokerUrl), parameters.nativePort, timeoutMs)
        : parameters.adapter === "command"
          ? await (await import("./suite/command-preflight.js")).preflightCommand({ line: parameters.brokerCommand, cwd: parameters.brokerCwd }, seed, timeoutMs)
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
      invocation: { broker: brokerArgs(values), timeoutMs, oracles: values.oracles === "on", retries },
      retries,
      flakyOk: values["flaky-ok"],
      ...(rerun ? { rerunOf: rerun.rerunOf } : {}),
      ...(values.durations !== undefined ? { durationsFile: path.resolve(values.durations) } : {}),
      ...(values["write-durations"] !== undefined ? { writeDurations: shown(values["write-durations"]) } : {}),
    });
  } catch (error) {
    // runSuite writes its own reports once it has judged the rules; anything before that writes
    // reports saying the run never finished and why, then fails as before (exit 2).
    await writeNotRun(reports, error instanceof Error ? error.message : String(error), { ...known, startedAt, requireAll: values["require-all"] ?? false });
    throw error;
  }
}

/** `merge DIR…`: shards of a conformance run, or parts of an explore campaign, as one run. */
async function merge(dirs: string[], values: ReturnType<typeof parse>["values"]): Promise<number> {
  const reports = path.resolve(values.reports);
  const baselineEntries = values["baseline-entries"];
  const startedAt = new Date().toISOString();
  let kind: "shards" | "explore" = "shards";
  try {
    kind = dirs.length === 0 ? "shards" : (await import("./shards/merge.js")).mergeKind(dirs);
    if (dirs.length === 0) throw new UsageError("merge needs the report folders of a run's shards or an explore campaign's parts: lomi-conformance merge DIR… [--reports OUT]");
    if (baselineEntries !== "scenario" && baselineEntries !== "rule") throw new UsageError(`--baseline-entries must be scenario or rule, not ${baselineEntries}`);
    if (dirs.some((d) => path.resolve(d) === reports)) throw new UsageError(`--reports ${values.reports} is one of the folders to merge: give the merged reports a folder of their own`);
    if (kind === "explore") {
      const { mergeExploreParts } = await import("./explore/merge-parts.js");
      return mergeExploreParts(dirs, reports, (t: string) => process.stdout.write(t));
    }
    const { clearReports } = await import("./suite/run-suite.js");
    clearReports(reports);
    const { mergeShards } = await import("./shards/merge.js");
    return await mergeShards({ dirs, reports, baselineEntries, writeBaseline: values["write-baseline"] && shown(values["write-baseline"]), writeDurations: values["write-durations"] && shown(values["write-durations"]) });
  } catch (error) {
    // A merge that cannot make one run says so in every report, as a run that never started does.
    if (kind === "shards") await writeNotRun(reports, error instanceof Error ? error.message : String(error), { broker: "not merged", seed: Number(values.seed), level: "must", tags: undefined, startedAt, requireAll: false });
    throw error;
  }
}

/** Written to the end before the process exits: a pipe takes 64 KB at a time, and the catalogue is 400 KB. */
const print = (text: string) => new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));

async function main(): Promise<number> {
  // record has options of its own, and the broker's command after `--` (harness/record/command.ts).
  if (process.argv[2] === "record") return (await import("./record/command.js")).recordCommand(process.argv.slice(3));
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    // A misspelt option of a conformance run still leaves reports naming it.
    const argv = process.argv.slice(2);
    if (!argv.some((a) => COMMANDS.includes(a) || a === "--help" || a === "-h")) {
      await writeNotRun(reportsDirOf(argv), (error as Error).message, { broker: "not started", seed: 1, level: "must", tags: undefined, startedAt: new Date().toISOString(), requireAll: false });
    }
    throw error;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${positionals[0] === "merge" ? MERGE_HELP : HELP}\n`);
    return 0;
  }
  // A conformance run of some scenarios: features/FILE.feature:LINE words, as cucumber takes them.
  if (positionals.length > 0 && positionals.every(isFeaturePlace)) return conformance(parsed, positionals);
  const [command] = positionals;
  if (command !== undefined && !COMMANDS.includes(command)) {
    const meant = suggestWord(command, COMMANDS);
    const message = `unknown command ${command}${meant ? `; did you mean ${meant}?` : ""} (the commands are ${COMMANDS.join(", ")}; a conformance run takes none, or scenarios as features/FILE.feature:LINE)`;
    // Perhaps a run was meant, as with a misspelt option: reports say why none ran, so a CI gate shows it.
    await writeNotRun(reportsDirOf(process.argv.slice(2)), message, { broker: "not started", seed: 1, level: "must", tags: undefined, startedAt: new Date().toISOString(), requireAll: false });
    throw new UsageError(message);
  }
  if (positionals[0] === "merge") return merge(positionals.slice(1), values);
  if (positionals[0] === "compare") {
    if (positionals.length !== 3) throw new UsageError("compare takes two reports folders: lomi-conformance compare BASE HEAD [--reports OUT]");
    const { compareCommand } = await import("./compare/command.js");
    const out = parsed.tokens.some((t) => t.kind === "option" && t.name === "reports") ? values.reports : positionals[2]!;
    return compareCommand({ base: shown(positionals[1]!), head: shown(positionals[2]!), out: path.resolve(out), write: (t) => process.stdout.write(t) });
  }
  if (positionals[0] === "check") {
    if (positionals.length !== 2) throw new UsageError("check takes one history file: lomi-conformance check HISTORY.jsonl [--report FILE.md|FILE.html] [--scenario]");
    const { checkCommand } = await import("./explore/command.js");
    return checkCommand(positionals[1]!, (t) => process.stdout.write(t), { report: values.report, scenario: values.scenario });
  }
  if (values.report !== undefined || values.scenario) throw new UsageError("--report and --scenario go with check: lomi-conformance check HISTORY.jsonl --report FILE.md --scenario");
  if (positionals.join(" ") === "explore") return explore(values);
  if (positionals.join(" ") === "lint") {
    const { lintSuite } = await import("./authoring/lint.js");
    const problems = await lintSuite();
    await print(problems.length === 0 ? "lomi-conformance lint: no problems\n" : `${problems.map((p) => `${p.file}:${p.line}: ${p.problem}`).join("\n")}\nlomi-conformance lint: ${problems.length} problem(s)\n`);
    return problems.length === 0 ? 0 : 2;
  }
  if (positionals.join(" ") === "teeth") {
    const { teeth, teethText } = await import("./authoring/teeth.js");
    await checkTags(values.tags);
    const { matrix, exitCode } = await teeth({
      tags: values.tags,
      jobs: integer("--jobs", values.jobs, 1, 16),
      reports: path.resolve(values.reports, "teeth"),
      mutants: values.mutant?.split(",").map((m) => m.trim()),
      seed: integer("--seed", values.seed),
      write: (t) => process.stdout.write(t),
    });
    await print(teethText(matrix));
    return exitCode;
  }
  if (positionals.join(" ") === "coverage") {
    const { coverageText, readReportedRun, sourceCoverage } = await import("./authoring/source-coverage.js");
    const coverage = sourceCoverage(readReportedRun(path.resolve(values.reports)));
    await print(values.json ? `${JSON.stringify(coverage, null, 2)}\n` : coverageText(coverage));
    return coverage.rows.some((r) => r.how === "unmapped") ? 2 : 0;
  }
  if (positionals.join(" ") === "catalogue") {
    const { catalogueJsonText, catalogueMarkdown, readExamples } = await import("./authoring/catalogue-doc.js");
    await print(values.json ? catalogueJsonText() : catalogueMarkdown(readExamples()));
    return 0;
  }
  if (values.json) throw new UsageError("--json goes with the catalogue and coverage commands");
  if (positionals.length > 0) {
    if (positionals.join(" ") !== "steps") throw new UsageError(`${command} takes no word after it, not ${positionals.slice(1).join(" ")}`);
    const { formatVocabulary, stepVocabulary } = await import("./authoring/step-vocabulary.js");
    await print(formatVocabulary(await stepVocabulary(), (await import("./oracles/index.js")).ORACLES));
    return 0;
  }
  return conformance(parsed);
}

// Ctrl+C or a CI runner's SIGTERM: a run under way writes its reports with what finished, then the
// process exits, so the exit hooks kill every broker process group.
exitOnStopSignals(2, (text) => process.stderr.write(`lomi-conformance: ${text}\n`));

main().then(
  (code) => process.exit(code),
  (error) => {
    const usage = error instanceof UsageError;
    const config = error instanceof HarnessError && error.kind === "config";
    process.stderr.write(`lomi-conformance: ${usage || config ? error.message : (error as Error).stack}\n`);
    if (usage) process.stderr.write("Run lomi-conformance --help for usage.\n");
    process.exit(2);
  },
);
