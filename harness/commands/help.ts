import { DEFAULT_NATIVE_PORT } from "./options.js";

// What --help prints: the whole kit's usage, and merge's own.
export const HELP = `lomi-conformance — run the Lomi conformance suite against a broker and report per rule

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
  lomi-conformance check HISTORY.jsonl [--report FILE.md|FILE.html] [--scenario] [--judge SIDES]
                                  the checker alone, on a recorded history (docs/explore.md): what
                                  it judged and what it could not, and why; --report writes the
                                  history with the violating records marked; --scenario prints a
                                  Gherkin skeleton of each violating exchange; each agent of
                                  recorded traffic is judged by the agent rules too (docs/agents.md;
                                  --judge broker, agents or both)
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
                         rules an earlier step left unjudged included), with its seed, broker
                         options and --parallel unless given; with nothing left failing there, exits 0 at once
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

export const MERGE_HELP = `lomi-conformance merge — a run's shards, or an explore campaign's parts, as one run

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
