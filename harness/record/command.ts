import path from "node:path";
import { systemClock } from "../../protocol/ports.js";
import { configError } from "../harness-error.js";
import { HistoryFile } from "./history-file.js";
import { SimControl } from "../lomi/sim-control.js";
import { FaultPlan, parseFaultSpec, type FaultSpec } from "./fault-plan.js";
import { shellSyntaxIn, splitCommand } from "../text/command-line.js";

/** record --faults: the spec read, its seed, and where a hold is armed. */
export interface FaultRequest {
  spec: FaultSpec;
  seed: number;
  lomiControl: URL | undefined;
}

export type RecordRequest =
  | { form: "stdio"; history: string; live: boolean; command: string; args: string[]; faults?: FaultRequest }
  | { form: "http"; history: string; live: boolean; port: number; to: URL };

/** record's options, as its declaration reads them (harness/commands/record.ts). */
export interface RecordValues {
  history: string | undefined;
  "broker-cmd": string | undefined;
  live: boolean;
  listen: number | undefined;
  to: URL | undefined;
  faults: string | undefined;
  seed: number | undefined;
  "lomi-control": URL | undefined;
}

const usage = (problem: string) => configError(`${problem}; lomi-conformance record --help shows its forms`);

/** What record is asked to do: its options read, the words before `--` (none) and the broker's command after it. */
export function recordRequest({
  values,
  operands,
  passed,
}: {
  values: RecordValues;
  operands: readonly string[];
  passed: readonly string[] | undefined;
}): RecordRequest {
  const [stray] = operands;
  if (stray !== undefined)
    throw usage(
      `${stray} comes before --; the broker's command goes after -- (e.g. record --history FILE -- ${stray}), or in --broker-cmd "${stray} …" for a client that takes -- as its own`,
    );
  if (values.history === undefined || values.history === "") throw usage("--history FILE is required: where the traffic is recorded");
  const history = path.resolve(values.history);
  if (values.faults === undefined && (values.seed !== undefined || values["lomi-control"] !== undefined))
    throw usage("--seed and --lomi-control go with --faults");
  if (values.listen !== undefined || values.to !== undefined) {
    if (values.faults !== undefined)
      throw usage("--faults needs the stdio form (-- CMD): the recorder restarts a broker it started, and a reply it drops is a line it passes on");
    if (passed !== undefined || values["broker-cmd"] !== undefined)
      throw usage("name either a broker command (after -- or in --broker-cmd) or --listen and --to, not both");
    if (values.listen === undefined || values.to === undefined) throw usage("--listen and --to go together");
    return { form: "http", history, live: values.live, port: values.listen, to: values.to };
  }
  if (passed !== undefined && values["broker-cmd"] !== undefined) throw usage("name the broker's command once: after -- or in --broker-cmd, not both");
  if (passed === undefined && values["broker-cmd"] === undefined)
    throw usage('the broker\'s command goes after --: lomi-conformance record --history FILE -- CMD [ARGS…] (or --broker-cmd "CMD [ARGS…]")');
  const line = values["broker-cmd"];
  const shell = line === undefined ? undefined : shellSyntaxIn(line);
  if (shell) throw usage(`--broker-cmd ${shell}`);
  const [command, ...args] = line === undefined ? passed! : splitCommand(line);
  if (command === undefined) throw usage(line === undefined ? "no broker command after --" : "--broker-cmd names no command");
  return {
    form: "stdio",
    history,
    live: values.live,
    command,
    args,
    ...(values.faults === undefined ? {} : { faults: faultRequest(values.faults, values.seed ?? 1, values["lomi-control"]) }),
  };
}

function faultRequest(spec: string, seed: number, lomiControl: URL | undefined): FaultRequest {
  const faults = parseFaultSpec(spec);
  if (!lomiControl && faults.items.some((i) => i.kind === "hold"))
    throw usage(`${faults.items.find((i) => i.kind === "hold")!.text} holds a dispatch in the simulated Lomi: name its control API with --lomi-control URL`);
  return { spec: faults, seed, lomiControl };
}

const printErr = (line: string) => void process.stderr.write(`${line}\n`);

/** `lomi-conformance record …`: answers the exit code (the broker's, for the stdio form). */
export async function recordCommand(request: RecordRequest): Promise<number> {
  if (request.form === "stdio") {
    // The source names the program only: its arguments, like a URL's query, may carry a secret.
    const history = new HistoryFile(request.history, `lomi-conformance record (stdio): ${path.basename(request.command)}`);
    const { recordStdio } = await import("./stdio.js");
    const f = request.faults;
    if (f) printErr(`lomi-conformance record: faults ${f.spec.text}, seed ${f.seed}`);
    const faults = f && { plan: new FaultPlan(f.spec, f.seed), lomi: f.lomiControl && new SimControl(f.lomiControl.href.replace(/\/$/, "")) };
    return recordStdio({
      history,
      command: request.command,
      args: request.args,
      live: request.live,
      clock: systemClock,
      print: printErr,
      ...(faults ? { faults } : {}),
    });
  }
  const history = new HistoryFile(request.history, `lomi-conformance record (http): ${request.to.origin}${request.to.pathname}`);
  const { recordHttp } = await import("./http-proxy.js");
  const proxy = await recordHttp({ history, port: request.port, to: request.to, live: request.live, clock: systemClock, print: printErr });
  // Stopped by a signal (the CLI exits on SIGINT and SIGTERM): the calls still in flight are recorded lost.
  process.once("exit", () => void proxy.close());
  printErr(`lomi-conformance record: ${proxy.url} → ${request.to.href}, recording into ${request.history}`);
  return new Promise<number>(() => undefined);
}
