import path from "node:path";
import { HarnessError } from "../harness-error.js";
import { text } from "./declaration.js";

export const DEFAULT_NATIVE_PORT = 4545;

/** A command line the kit refuses: a configuration error (exit 2) printed with a pointer to the command's --help. */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super("config", message);
  }
}

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
export const commandLine = () =>
  ["lomi-conformance", ...withoutSecrets(process.argv.slice(2))].map((a) => (/^[\w@%+=:,./*-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");

/** Where a run (and the commands that read or write a run's reports) keeps them unless --reports says. */
const DEFAULT_REPORTS = "reports";

/** --reports, as each command that writes or reads a run's reports takes it: what help calls the folder, and what goes there. */
export const reportsOption = (value: string, help: string) => text({ value, default: DEFAULT_REPORTS, shownDefault: `${DEFAULT_REPORTS}/`, help });

/**
 * Where a conformance run writes its reports, read from the command line as it stands even when it
 * does not parse: a CI step that shows the reports then shows why the run never started.
 */
export function reportsDirOf(argv: readonly string[]): string {
  let dir = DEFAULT_REPORTS;
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
