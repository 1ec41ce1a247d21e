// How long the bins take to be useful: lomi-broker until it answers MCP initialize over stdio, and
// lomi-conformance until it has printed --help, each next to a bare `node -e ""` in the same run.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repeat } from "./summary.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } })}\n`;

/** Milliseconds from spawn until `done` sees the output it waits for (`exited` once the process is gone). */
function timeUntil(args: string[], done: (stdout: string, exited: boolean) => boolean, input?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    const finish = () => {
      resolve(Number(process.hrtime.bigint() - start) / 1e6);
      child.kill();
    };
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (done(out, false)) finish();
    });
    child.once("exit", (code) => (done(out, true) ? finish() : reject(new Error(`${args.join(" ")} exited ${code}: ${out}`))));
    if (input) child.stdin.write(input);
  });
}

async function median(label: string, run: () => Promise<number>): Promise<number> {
  const { median: m, min, max } = await repeat(ROUNDS, run);
  process.stdout.write(`  ${label.padEnd(44)} ${m.toFixed(0).padStart(6)} ms (median of ${ROUNDS}; ${min.toFixed(0)}-${max.toFixed(0)})\n`);
  return m;
}

const store = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-bench-startup-")), "receipts.sqlite");
process.stdout.write("start-up\n");
const bare = await median('node -e ""', () => timeUntil(["-e", ""], (_, exited) => exited));
// As the harness starts a --broker-cmd broker: a native bridge URL (nothing needs to answer before
// the first tool call) and a store.
const initialize = await median("lomi-broker, until initialize", () =>
  timeUntil(["bin/lomi-broker.js", "--native-url", "http://127.0.0.1:9", "--store", store, "--seed", "1"], (out) => out.includes('"id":1'), INITIALIZE),
);
const help = await median("lomi-conformance --help", () => timeUntil(["bin/lomi-conformance.js", "--help"], (out) => out.includes("Usage:")));
process.stdout.write(`ratios to bare node: initialize ${(initialize / bare).toFixed(1)}x, --help ${(help / bare).toFixed(1)}x\n`);
