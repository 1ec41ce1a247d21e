// Durable admissions per second at the fsync limit, as ratios to raw better-sqlite3 WAL+FULL commits
// measured in the same run, and the time to reopen a full store (mark unfinished outcome_unknown).
// node --import tsx bench/admissions.bench.ts  (32 clients x 100 admissions stay under the 4,096-receipt limit)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { EnvelopeToolResult } from "../protocol/envelope.js";
import { systemClock } from "../protocol/ports.js";
import { Broker } from "../reference-broker/broker.js";
import { connectMcpServer } from "../reference-broker/mcp-server.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { SimulatorHost } from "../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess } from "../simulator/in-process-route.js";
import { readWorldFile } from "../simulator/world-file.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-"));
let files = 0;
const freshFile = () => path.join(dir, `store-${files++}.sqlite`);

/** Raw single-row WAL+FULL transactions: the fsync rate this disk allows. */
function rawCommitsPerSecond(n: number): number {
  const db = new Database(freshFile());
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
  const start = performance.now();
  for (let i = 0; i < n; i++) db.transaction(() => insert.run("x".repeat(200)))();
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return n / seconds;
}

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, any>>;

async function client(broker: Broker, name: string): Promise<Call> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectMcpServer(broker, serverSide);
  const c = new Client({ name, version: "1.0.0" });
  await c.connect(clientSide);
  return async (tool, args) => {
    const reply = (await c.callTool({ name: tool, arguments: args })) as EnvelopeToolResult;
    const e = reply.structuredContent;
    if (e.status !== "ok") throw new Error(`${tool}: ${e.code} ${e.message}`);
    return e.data as Record<string, any>;
  };
}

/** Admissions per second with `clients` clients, each on its own terminal. */
async function admissionsPerSecond(clients: number, perClient: number): Promise<number> {
  const world = readWorldFile();
  const host = new SimulatorHost({ ...world, autoApprovePairings: true, commands: { ...world.commands, true: { output: "", durationMs: 0, exitCode: 0 } } }, 1);
  routeInProcess(host);
  const broker = await Broker.start({ nativeUrl: IN_PROCESS_ORIGIN, fetch: inProcessFetch, storePath: freshFile(), seed: 1, hostClock: systemClock });
  const sessions: Array<{ call: Call; retryEpoch: string; terminalSessionId: string }> = [];
  for (let i = 0; i < clients; i++) {
    const call = await client(broker, `bench-${i}`);
    const { retryEpoch, domainRevision } = await call("lomi_connect", { workspaceId: "ws-alpha" });
    const { operation } = await call("lomi_terminal_create", {
      workspaceId: "ws-alpha",
      cwdRelative: "",
      title: `t${i}`,
      expectedRevision: domainRevision,
      retryEpoch,
      requestKey: `create-${i}`,
    });
    let settled = operation;
    while (settled.state !== "succeeded") settled = (await call("lomi_operation_get", { operationId: operation.operationId })).operation;
    sessions.push({ call, retryEpoch, terminalSessionId: settled.result.terminalSessionId });
  }
  const run = (s: (typeof sessions)[number], n: number) =>
    s.call("lomi_terminal_run", {
      workspaceId: "ws-alpha",
      terminalSessionId: s.terminalSessionId,
      command: "true",
      retryEpoch: s.retryEpoch,
      requestKey: `run-${n}`,
    });
  for (const s of sessions) await run(s, -1); // warm-up
  const start = performance.now();
  await Promise.all(
    sessions.map(async (s) => {
      for (let n = 0; n < perClient; n++) await run(s, n);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  broker.close();
  return (clients * perClient) / seconds;
}

/** Milliseconds to reopen a store holding `n` unfinished receipts and mark them outcome_unknown. */
function reopenMs(n: number): number {
  const file = freshFile();
  openSqliteStore(file, 0).store.close();
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO receipts (operation_id, receipt_key, fingerprint, pairing_id, retry_epoch, project_id, workspace_id, tool, request_key, serialize_key, args, state, effect_state, created_at, updated_at)
     VALUES (?, ?, 'f', 'pair', 'epoch', 'proj', 'ws', 'lomi_terminal_run', ?, ?, '{"command":"true"}', 'running', 'none', 0, 0)`,
  );
  db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(`op-${i}`, `key-${i}`, `rk-${i}`, `t:${i}`);
  })();
  db.close();
  const start = performance.now();
  const { store, recovered } = openSqliteStore(file, 1);
  const ms = performance.now() - start;
  store.close();
  if (recovered !== n) throw new Error(`recovered ${recovered} of ${n}`);
  return ms;
}

const raw = rawCommitsPerSecond(2000);
const one = await admissionsPerSecond(1, 1000);
const many = await admissionsPerSecond(32, 100);
const raw2 = rawCommitsPerSecond(2000);
const baseline = (raw + raw2) / 2;
const reopen1k = reopenMs(1024);
const reopen4k = reopenMs(4096);
const table = {
  rawCommitsPerSecond: Math.round(baseline),
  admissions1: { perSecond: Math.round(one), ratio: +(one / baseline).toFixed(3) },
  admissions32: { perSecond: Math.round(many), ratio: +(many / baseline).toFixed(3) },
  reopenMs: { at1024: +reopen1k.toFixed(1), at4096: +reopen4k.toFixed(1), ratio4096to1024: +(reopen4k / reopen1k).toFixed(2) },
  rssMB: Math.round(process.memoryUsage().rss / 2 ** 20),
};
process.stdout.write(`${JSON.stringify(table, null, 2)}\n`);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
