import path from "node:path";
import { parseArgs } from "node:util";
import { systemClock } from "../../protocol/ports.js";
import { configError } from "../harness-error.js";
import { HistoryFile } from "./history-file.js";
import { messageOf } from "../../protocol/errors.js";
import { SimControl } from "../lomi/sim-control.js";
import { FaultPlan, parseFaultSpec, type FaultSpec } from "./fault-plan.js";
import { shellSyntaxIn, splitCommand } from "../text/command-line.js";

export const RECORD_HELP = `lomi-conformance record — record the traffic between a real MCP client and a broker as a
lomi-history/1 file, for lomi-conformance check (docs/implementers.md, "Judging your real traffic")

Usage:
  lomi-conformance record --history FILE [--live] [--faults SPEC [--seed N] [--lomi-control URL]] -- CMD [ARGS…]
  lomi-conformance record --history FILE [--live] […] --broker-cmd "CMD [ARGS…]"
        a stdio MCP server standing in for the broker command CMD: name this command in your MCP
        client's configuration where the broker's was. CMD runs as its child; every message passes
        both ways unchanged, byte for byte, its stderr included. --broker-cmd gives the command as
        one word, for a client that takes -- as its own (the MCP Inspector's CLI).
  lomi-conformance record --history FILE [--live] --listen PORT --to URL
        a reverse proxy on http://127.0.0.1:PORT/mcp in front of the broker's Streamable HTTP
        endpoint URL: point your client at it instead. One history for all sessions, each its own
        connection. Host and Origin are checked as the reference broker checks them; the bearer
        token goes to the broker as the client sent it, and never into the history. Stop it with
        Ctrl+C (or SIGTERM).

Options:
  --history FILE   the history to append to (made if missing; each finished call is written at once,
                   so a killed recorder loses at most the calls in flight)
  --broker-cmd "CMD [ARGS…]"   the broker's command in place of -- CMD [ARGS…], split on spaces,
                   "quoted words" kept whole, run without a shell
  --live           on stderr, each oracle violation as soon as the history shows it (rules, records,
                   one line); first, one line of the rules recorded traffic cannot judge (it has no
                   Lomi effect ledger), each once. Messages are never held back for it.
  --listen PORT    with --to: the port on 127.0.0.1 (0 picks a free one; the address is printed)
  --to URL         with --listen: the broker's endpoint, e.g. http://127.0.0.1:3333/mcp
  --faults SPEC    between the client and CMD, lose a reply, restart the broker or hold an
                   operation, so the agent's recovery is exercised and judged (docs/agents.md,
                   "Faults"): SPEC is ITEM[,ITEM…], ITEM is KIND:SUBJECT[#N|@P%], KIND lose-reply,
                   restart or hold, SUBJECT a tool name or op (any operation tool); #N the N-th
                   call of it (default the first), @P% each call with probability P. Each fault
                   is written to the history as it is injected. The stdio form only.
  --seed N         what the @P% draws are seeded from (default 1, as a conformance run's)
  --lomi-control URL   the simulated Lomi's control API (lomi-sim serve, or lomi-broker
                   --simulate --control-port): hold arms and releases a held dispatch there
  -h, --help       this text

The history records each tools/call with the client's name and version (initialize's clientInfo) as its
agent, overlapping calls with a shared concurrent mark, and a broker-crash fault when CMD exits while
its client is still connected. Judge it with lomi-conformance check FILE.`;

const OPTIONS = {
  history: { type: "string" },
  "broker-cmd": { type: "string" },
  live: { type: "boolean", default: false },
  listen: { type: "string" },
  to: { type: "string" },
  faults: { type: "string" },
  seed: { type: "string" },
  "lomi-control": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** record --faults: the spec read, its seed, and where a hold is armed. */
export interface FaultRequest {
  spec: FaultSpec;
  seed: number;
  lomiControl: URL | undefined;
}

export type RecordRequest =
  | { form: "help" }
  | { form: "stdio"; history: string; live: boolean; command: string; args: string[]; faults?: FaultRequest }
  | { form: "http"; history: string; live: boolean; port: number; to: URL };

const usage = (problem: string) => configError(`record: ${problem}; lomi-conformance record --help shows its forms`);

/** The command line after `record`, read: the recorder's options before `--`, the broker's command after. */
export function parseRecordArgs(argv: readonly string[]): RecordRequest {
  const split = argv.indexOf("--");
  const own = split === -1 ? [...argv] : argv.slice(0, split);
  const broker = split === -1 ? [] : argv.slice(split + 1);
  let values: { history?: string; "broker-cmd"?: string; live: boolean; listen?: string; to?: string; faults?: string; seed?: string; "lomi-control"?: string; help: boolean };
  try {
    values = parseArgs({ args: own, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const positional = /^Unexpected argument '([^']+)'/.exec(messageOf(error))?.[1];
    throw usage(positional ? `${positional} comes before --; the broker's command goes after -- (e.g. record --history FILE -- ${positional}), or in --broker-cmd "${positional} …" for a client that takes -- as its own` : messageOf(error));
  }
  if (values.help) return { form: "help" };
  if (values.history === undefined || values.history === "") throw usage("--history FILE is required: where the traffic is recorded");
  const history = path.resolve(values.history);
  if (values.faults === undefined && (values.seed !== undefined || values["lomi-control"] !== undefined)) throw usage("--seed and --lomi-control go with --faults");
  if (values.listen !== undefined || values.to !== undefined) {
    if (values.faults !== undefined) throw usage("--faults needs the stdio form (-- CMD): the recorder restarts a broker it started, and a reply it drops is a line it passes on");
    if (split !== -1 || values["broker-cmd"] !== undefined) throw usage("name either a broker command (after -- or in --broker-cmd) or --listen and --to, not both");
    if (values.listen === undefined || values.to === undefined) throw usage("--listen and --to go together");
    const port = Number(values.listen);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--listen takes a port from 0 to 65535, not ${values.listen}`);
    let to: URL;
    try {
      to = new URL(values.to);
    } catch {
      throw usage(`--to takes the broker's URL, such as http://127.0.0.1:3333/mcp, not ${values.to}`);
    }
    if (to.protocol !== "http:" && to.protocol !== "https:") throw usage(`--to takes an http(s) URL, not ${to.protocol}`);
    return { form: "http", history, live: values.live, port, to };
  }
  if (split !== -1 && values["broker-cmd"] !== undefined) throw usage("name the broker's command once: after -- or in --broker-cmd, not both");
  if (split === -1 && values["broker-cmd"] === undefined) throw usage("the broker's command goes after --: lomi-conformance record --history FILE -- CMD [ARGS…] (or --broker-cmd \"CMD [ARGS…]\")");
  const line = values["broker-cmd"];
  const shell = line === undefined ? undefined : shellSyntaxIn(line);
  if (shell) throw usage(shell);
  const [command, ...args] = line === undefined ? broker : splitCommand(line);
  if (command === undefined) throw usage(line === undefined ? "no broker command after --" : "--broker-cmd names no command");
  return { form: "stdio", history, live: values.live, command, args, ...(values.faults === undefined ? {} : { faults: faultRequest(values.faults, values.seed, values["lomi-control"]) }) };
}

function faultRequest(spec: string, seedText: string | undefined, control: string | undefined): FaultRequest {
  const faults = parseFaultSpec(spec);
  const seed = seedText === undefined ? 1 : Number(seedText);
  if (!Number.isInteger(seed) || seed < 0) throw usage(`--seed takes a whole number, not ${seedText}`);
  let lomiControl: URL | undefined;
  if (control !== undefined) {
    try {
      lomiControl = new URL(control);
    } catch {
      throw usage(`--lomi-control takes the simulated Lomi's URL, such as http://127.0.0.1:4545, not ${control}`);
    }
  }
  if (!lomiControl && faults.items.some((i) => i.kind === "hold")) throw usage(`${faults.items.find((i) => i.kind === "hold")!.text} holds a dispatch in the simulated Lomi: name its control API with --lomi-control URL`);
  return { spec: faults, seed, lomiControl };
}

const printErr = (line: string) => void process.stderr.write(`${line}\n`);

/** `lomi-conformance record …`: answers the exit code (the broker's, for the stdio form). */
export async function recordCommand(argv: readonly string[]): Promise<number> {
  const request = parseRecordArgs(argv);
  if (request.form === "help") {
    process.stdout.write(`${RECORD_HELP}\n`);
    return 0;
  }
  if (request.form === "stdio") {
    // The source names the program only: its arguments, like a URL's query, may carry a secret.
    const history = new HistoryFile(request.history, `lomi-conformance record (stdio): ${path.basename(request.command)}`);
    const { recordStdio } = await import("./stdio.js");
    const f = request.faults;
    if (f) printErr(`lomi-conformance record: faults ${f.spec.text}, seed ${f.seed}`);
    const faults = f && { plan: new FaultPlan(f.spec, f.seed), lomi: f.lomiControl && new SimControl(f.lomiControl.href.replace(/\/$/, "")) };
    return recordStdio({ history, command: request.command, args: request.args, live: request.live, clock: systemClock, print: printErr, ...(faults ? { faults } : {}) });
  }
  const history = new HistoryFile(request.history, `lomi-conformance record (http): ${request.to.origin}${request.to.pathname}`);
  const { recordHttp } = await import("./http-proxy.js");
  const proxy = await recordHttp({ history, port: request.port, to: request.to, live: request.live, clock: systemClock, print: printErr });
  // Stopped by a signal (the CLI exits on SIGINT and SIGTERM): the calls still in flight are recorded lost.
  process.once("exit", () => void proxy.close());
  printErr(`lomi-conformance record: ${proxy.url} → ${request.to.href}, recording into ${request.history}`);
  return new Promise<number>(() => undefined);
}
