// What `lomi-conformance record` adds to each message: the median round trip of lomi_workspace_list
// against the reference broker over stdio, direct, through the recorder, and through the recorder
// with --live (which judges the whole history after each call); then over Streamable HTTP, direct
// and through the recorder's proxy. Measured in the same run, in rounds that alternate the order.
// Prints each median, the time added per call and the ratio to the direct connection of its transport.
// BENCH_CALLS calls a sample (default 1,000, after 100 to warm), BENCH_ROUNDS rounds (default 3).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { startAnnouncing } from "../test/support/recorder.js";
import { summarize } from "./summary.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BROKER = [process.execPath, "bin/lomi-broker.js", "--simulate", "--approve-pairings", "--seed", "1", "--clock", "virtual"];
const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-record-bench-"));

const httpBroker = await startAnnouncing([...BROKER.slice(1), "--transport", "http", "--port", "0"], /listening on (http:\/\/\S+)/);
const proxy = await startAnnouncing(
  ["bin/lomi-conformance.js", "record", "--history", path.join(dir, "http.jsonl"), "--listen", "0", "--to", httpBroker.url],
  /record: (http:\/\/\S+) →/,
);
process.once("exit", () => [proxy, httpBroker].forEach((s) => s.child.kill()));

const stdio = (args: string[]) => () => new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
const WAYS: Record<string, { baseline: string; transport: (round: number) => () => Transport }> = {
  "stdio direct": { baseline: "stdio direct", transport: () => stdio(BROKER.slice(1)) },
  "stdio recorder": {
    baseline: "stdio direct",
    transport: (round) => stdio(["bin/lomi-conformance.js", "record", "--history", path.join(dir, `plain-${round}.jsonl`), "--", ...BROKER]),
  },
  "stdio recorder --live": {
    baseline: "stdio direct",
    transport: (round) => stdio(["bin/lomi-conformance.js", "record", "--history", path.join(dir, `live-${round}.jsonl`), "--live", "--", ...BROKER]),
  },
  "http direct": { baseline: "http direct", transport: () => () => new StreamableHTTPClientTransport(new URL(httpBroker.url)) },
  "http recorder": { baseline: "http direct", transport: () => () => new StreamableHTTPClientTransport(new URL(proxy.url)) },
};

/** Median milliseconds of one call's round trip, over CALLS sequential calls. */
async function medianRoundTrip(transport: () => Transport): Promise<number> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport());
  try {
    const samples: number[] = [];
    for (let i = 0; i < CALLS + 100; i++) {
      const started = process.hrtime.bigint();
      await client.callTool({ name: "lomi_workspace_list", arguments: {} });
      if (i >= 100) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return summarize(samples).median;
  } finally {
    await client.close();
  }
}

process.stdout.write(`record overhead: ${CALLS} sequential lomi_workspace_list calls a sample, ${ROUNDS} round(s)\n`);
const medians: Record<string, number[]> = Object.fromEntries(Object.keys(WAYS).map((w) => [w, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(WAYS) : Object.keys(WAYS).reverse();
  for (const way of order) medians[way]!.push(await medianRoundTrip(WAYS[way]!.transport(round)));
}
for (const [way, values] of Object.entries(medians)) {
  const median = summarize(values).median;
  const { baseline } = WAYS[way]!;
  const direct = summarize(medians[baseline]!).median;
  const added = way === baseline ? "" : `  +${((median - direct) * 1000).toFixed(0)} µs a call, ${(median / direct).toFixed(2)}× ${baseline}`;
  process.stdout.write(`  ${way.padEnd(22)} ${median.toFixed(3)} ms${added}\n`);
}
process.exit(0);
