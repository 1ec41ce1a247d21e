import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfiguration, runCucumber } from "@cucumber/cucumber/api";
import { scenarioCatalogue } from "./feature-catalogue.js";
import { isConformant, judgeRules, type Level } from "./report/rule-verdicts.js";
import { readScenarioResults } from "./report/scenario-results.js";
import { summarize, writeReports } from "./report/write-reports.js";
import { citedRules, loadRules } from "./rules.js";
import type { RunParameters } from "./run-parameters.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const HELP = `lomi-conformance — run the Lomi conformance suite against a broker and report per rule

Usage:
  lomi-conformance [options]

Broker under test (one of):
  --broker reference     the reference broker in this process (default)
  --broker-cmd "CMD"     a stdio MCP server the harness starts, kills (SIGKILL) and restarts; it gets
                         LOMI_NATIVE_URL, LOMI_STORE_PATH and LOMI_SEED in its environment
  --broker-faults        the --broker-cmd broker honours LOMI_BROKER_FAULTS (fail-reserve,
                         crash-after-reserve, crash-after-dispatch, crash-before-settle); without
                         it, scenarios that need fault hooks are not applicable

Options:
  --tags EXPR            cucumber tag expression, e.g. "@IDEM-01 or @needs-crash"
  --parallel N           worker processes (default 1)
  --reports DIR          where reports go (default reports/)
  --seed N               run seed; each scenario's seed derives from it (default 1)
  --level L              must | should | may: which rules must pass to be conformant (default must)
  --timeout-ms N         per broker call (default 10000)
  -h, --help             this text

Exit codes: 0 conformant, 1 a rule failed or could not be judged, 2 harness or configuration error.
Reports: cucumber.html, junit.xml, messages.ndjson, conformance.json, conformance.md.`;

const REPORT_FILES = ["cucumber.html", "junit.xml", "messages.ndjson", "conformance.json", "conformance.md"];

class UsageError extends Error {}

function positiveInt(name: string, text: string, min = 0): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer ≥ ${min}, not ${text}`);
  return n;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        broker: { type: "string", default: "reference" },
        "broker-cmd": { type: "string" },
        "broker-faults": { type: "boolean", default: false },
        tags: { type: "string" },
        parallel: { type: "string", default: "1" },
        reports: { type: "string", default: "reports" },
        seed: { type: "string", default: "1" },
        level: { type: "string", default: "must" },
        "timeout-ms": { type: "string", default: "10000" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.broker !== "reference") throw new UsageError(`--broker takes only "reference"; use --broker-cmd for another broker`);
  const level = values.level as Level;
  if (!["must", "should", "may"].includes(level)) throw new UsageError(`--level must be must, should or may, not ${values.level}`);
  const seed = positiveInt("--seed", values.seed);
  const parallel = positiveInt("--parallel", values.parallel, 1);
  const timeoutMs = positiveInt("--timeout-ms", values["timeout-ms"], 1);
  const reports = path.resolve(values.reports);
  const brokerCommand = values["broker-cmd"];
  const parameters: RunParameters = brokerCommand
    ? { adapter: "command", brokerCommand, brokerFaults: values["broker-faults"], seed, timeoutMs }
    : { adapter: "in-process", brokerFaults: true, seed, timeoutMs };
  const brokerName = brokerCommand ? `command: ${brokerCommand}` : "reference broker (in-process)";

  // The seed first, so a failing run can be replayed.
  process.stdout.write(`lomi-conformance: seed ${seed}, broker ${brokerName}, reports in ${reports}\n`);
  mkdirSync(reports, { recursive: true });
  // Only this run's own files go: --reports may name a folder that holds other things.
  for (const f of REPORT_FILES) rmSync(path.join(reports, f), { force: true });
  const messages = path.join(reports, "messages.ndjson");
  // Parallel workers load the TypeScript steps through tsx too.
  if (!(process.env.NODE_OPTIONS ?? "").includes("tsx")) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import tsx`.trim();
  process.env.LOMI_STEP_TIMEOUT_MS = String(timeoutMs);

  const started = Date.now();
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: [path.join(ROOT, "features/**/*.feature")],
        import: [path.join(ROOT, "steps/**/*.ts")],
        strict: true,
        parallel: parallel > 1 ? parallel : 0,
        tags: values.tags ?? "",
        worldParameters: parameters,
        format: ["progress", `html:${path.join(reports, "cucumber.html")}`, `junit:${path.join(reports, "junit.xml")}`, `message:${messages}`],
      },
    },
    { cwd: ROOT },
  );
  const { success } = await runCucumber(runConfiguration, { cwd: ROOT });

  const rulesFile = loadRules();
  const known = new Set(rulesFile.rules.map((r) => r.id));
  const all = scenarioCatalogue();
  const covered = new Set(all.flatMap((s) => citedRules(s.tags, known)));
  const results = readScenarioResults(messages);
  const selected = values.tags ? new Set(results.flatMap((s) => citedRules(s.tags, known))) : undefined;
  const rules = judgeRules(rulesFile.rules, results, covered, selected);
  const conformant = isConformant(rules, level);
  const run = {
    broker: brokerName,
    seed,
    level,
    tags: values.tags,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    conformant,
    scenarios: summarize(results),
    rules,
  };
  writeReports(reports, run);
  const counted = (v: string) => rules.filter((r) => r.verdict === v).length;
  process.stdout.write(
    `\nlomi-conformance: ${conformant ? "CONFORMANT" : "NOT CONFORMANT"} — rules: ${counted("pass")} pass, ${counted("fail")} fail, ` +
      `${counted("not-applicable")} not applicable, ${counted("uncovered")} uncovered; ` +
      `scenarios: ${run.scenarios.pass} passed, ${run.scenarios.fail} failed, ${run.scenarios.notApplicable} not applicable; ` +
      `${(run.durationMs / 1000).toFixed(1)} s\n`,
  );
  for (const r of rules.filter((x) => x.verdict === "fail")) process.stdout.write(`  FAIL ${r.id}: ${r.reason}\n`);
  process.stdout.write(`lomi-conformance: reports in ${path.relative(process.cwd(), reports) || "."}/ (conformance.md, conformance.json, cucumber.html, junit.xml)\n`);
  return conformant && success ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`lomi-conformance: ${error instanceof UsageError ? error.message : (error as Error).stack}\n`);
    if (error instanceof UsageError) process.stderr.write("Run lomi-conformance --help for usage.\n");
    process.exit(2);
  },
);
