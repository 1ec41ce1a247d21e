// How long the bins take to be useful: lomi-broker until it answers MCP initialize over stdio (and
// tools/list after it, as a harness needs before its first scenario), and lomi-conformance until it
// has printed --help, each next to a bare `node -e ""` in the same run. Where Linux's
// /proc/PID/schedstat exists, also the broker's CPU time until then (the wall time waits for a busy machine).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repeat, summarize } from "./summary.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } })}\n`;
const TOOLS_LIST = `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`;
const SCHEDSTAT = existsSync("/proc/self/schedstat");

/** CPU time a live process has run, in ms (its schedstat's first field is nanoseconds on a CPU). */
const cpuMsOf = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

interface Timing {
  wallMs: number;
  /** undefined where /proc/PID/schedstat does not exist. */
  cpuMs: number | undefined;
}

/** Wall (and CPU) milliseconds from spawn until `done` sees the output it waits for (`exited` once the process is gone). */
function timeUntil(args: string[], done: (stdout: string, exited: boolean) => boolean, input?: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    let exited = false;
    const finish = () => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      resolve({ wallMs, cpuMs: SCHEDSTAT && !exited ? cpuMsOf(child.pid!) : undefined });
      child.kill();
    };
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (done(out, false)) finish();
    });
    child.once("exit", (code) => {
      exited = true;
      if (done(out, true)) finish();
      else reject(new Error(`${args.join(" ")} exited ${code}: ${out}`));
    });
    if (input) child.stdin.write(input);
  });
}

async function median(label: string, run: () => Promise<Timing>): Promise<number> {
  const timings: Timing[] = [];
  const {
    median: m,
    min,
    max,
  } = await repeat(ROUNDS, async () => {
    const t = await run();
    timings.push(t);
    return t.wallMs;
  });
  const cpu = timings.every((t) => t.cpuMs !== undefined) ? summarize(timings.map((t) => t.cpuMs!)) : undefined;
  const cpuText = cpu ? `; CPU ${cpu.median.toFixed(0)} ms (${cpu.min.toFixed(0)}-${cpu.max.toFixed(0)})` : "";
  process.stdout.write(`  ${label.padEnd(44)} ${m.toFixed(0).padStart(6)} ms (median of ${ROUNDS}; ${min.toFixed(0)}-${max.toFixed(0)})${cpuText}\n`);
  return m;
}

const store = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-bench-startup-")), "receipts.sqlite");
process.stdout.write("start-up\n");
const bare = await median('node -e ""', () => timeUntil(["-e", ""], (_, exited) => exited));
// As the harness starts a --broker-cmd broker: a native bridge URL (nothing needs to answer before
// the first tool call) and a store.
const brokerArgs = ["bin/lomi-broker.js", "--native-url", "http://127.0.0.1:9", "--store", store, "--seed", "1"];
const initialize = await median("lomi-broker, until initialize", () => timeUntil(brokerArgs, (out) => out.includes('"id":1'), INITIALIZE));
const toolsList = await median("lomi-broker, until tools/list", () => timeUntil(brokerArgs, (out) => out.includes('"id":2'), INITIALIZE + TOOLS_LIST));
const help = await median("lomi-conformance --help", () => timeUntil(["bin/lomi-conformance.js", "--help"], (out) => out.includes("Usage:")));
process.stdout.write(
  `ratios to bare node: initialize ${(initialize / bare).toFixed(1)}x, tools/list ${(toolsList / bare).toFixed(1)}x, --help ${(help / bare).toFixed(1)}x\n`,
);
