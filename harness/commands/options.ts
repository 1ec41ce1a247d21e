import path from "node:path";
import { parseArgs } from "node:util";
import { suggestOption } from "../text/option-suggestion.js";

export const DEFAULT_NATIVE_PORT = 4545;

/** A command line the kit refuses: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {}

/** A header with its value hidden: "X-Api-Key:***". */
const hiddenHeader = (header: string) => (header.includes(":") ? `${header.slice(0, header.indexOf(":"))}:***` : "***");

/** The command line with the values a report must never show (a token, a header's value) hidden. */
export function withoutSecrets(args: readonly string[]): string[] {
  return args.map((a, i) => {
    if (args[i - 1] === "--broker-token") return "***";
    if (args[i - 1] === "--header") return hiddenHeader(a);
    if (a.startsWith("--broker-token=")) return "--broker-token=***";
    if (a.startsWith("--header=")) return `--header=${hiddenHeader(a.slice("--header=".length))}`;
    return a;
  });
}

/** This run's command line, quoted where a shell would need it, secrets hidden: what a report says was run. */
export const commandLine = () => ["lomi-conformance", ...withoutSecrets(process.argv.slice(2))].map((a) => (/^[\w@%+=:,./*-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");

export function integer(name: string, text: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, not ${text}`);
  return n;
}

export const OPTIONS = {
  broker: { type: "string" },
  "broker-cmd": { type: "string" },
  "broker-url": { type: "string" },
  "broker-token": { type: "string" },
  header: { type: "string", multiple: true },
  "header-file": { type: "string" },
  "native-port": { type: "string" },
  "broker-image": { type: "string" },
  "broker-faults": { type: "boolean", default: false },
  tags: { type: "string" },
  name: { type: "string" },
  "rerun-failed": { type: "string" },
  retries: { type: "string", default: "0" },
  repeat: { type: "string", default: "1" },
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
  judge: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

export function parse() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS, strict: true, tokens: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (!unknown) throw new UsageError(message);
    const suggestion = suggestOption(unknown, Object.keys(OPTIONS));
    throw new UsageError(`unknown option ${unknown}${suggestion ? `; did you mean ${suggestion}?` : ""}`);
  }
}

export type ParsedCommandLine = ReturnType<typeof parse>;
export type OptionValues = ParsedCommandLine["values"];

/**
 * Where a conformance run writes its reports, read from the command line as it stands even when it
 * does not parse: a CI step that shows the reports then shows why the run never started.
 */
export function reportsDirOf(argv: readonly string[]): string {
  let dir: string = OPTIONS.reports.default;
  argv.forEach((arg, i) => {
    const next = argv[i + 1];
    if (arg === "--reports" && next !== undefined) dir = next;
    else if (arg.startsWith("--reports=")) dir = arg.slice("--reports=".length);
  });
  return path.resolve(dir);
}

/**
 * A file the user named, as the reports show it: relative to where the kit runs (the repository's
 * root in CI), so a summary or pull-request comment carries no path of the runner.
 */
export const shown = (file: string) => path.relative(process.cwd(), path.resolve(file)) || ".";

/** Written to the end before the process exits: a pipe takes 64 KB at a time, and the catalogue is 400 KB. */
export const print = (text: string) => new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
