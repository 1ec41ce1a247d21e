import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ofKind } from "../protocol/control-api.js";
import type { Envelope } from "../protocol/envelope.js";
import { seededRandom, type Random } from "../protocol/ports.js";
import { canTransition, type OperationState } from "../protocol/states.js";
import { simulatorHandlers } from "../simulator/handlers.js";
import { SimulatorHost } from "../simulator/host.js";
import { serveHandlers } from "../simulator/http-server.js";
import { readWorldFile } from "../simulator/world-file.js";
import { BrokerProcess } from "./http-broker-process.js";

export interface SoakOptions {
  seed: number;
  kills: number;
  clients: number;
  /** Where progress lines go (the CLI prints them; the test keeps them for a failure message). */
  log: (line: string) => void;
}

export interface SoakFigures {
  seed: number;
  kills: number;
  clients: number;
  /** Logical writes each answered with an operationId (first reply or a retry's). */
  operations: number;
  /** Calls whose reply was lost to a kill, then retried with the same retry identity. */
  lostReplies: number;
  /** Retries that the broker answered with the prior operation (duplicate: true). */
  priorAnswers: number;
  /** Retries under an earlier instance's epoch that were never reserved, resubmitted under a new one. */
  resubmitted: number;
  ledgerDispatches: number;
  doubleEffects: number;
  lostReceipts: number;
  unreadableOperationIds: number;
  illegalTransitions: number;
  problems: string[];
}

const WORKSPACE = "ws-alpha";
const CALL_TIMEOUT_MS = 15_000;

class LostReply extends Error {}

/** One agent: its own pairing, writing its own files one by one, retrying every lost reply. */
class SoakClient {
  private client: Client | undefined;
  private clientGeneration = -1;
  private retryEpoch = "";
  readonly operationIds = new Set<string>();
  readonly refusals: string[] = [];
  lostReplies = 0;
  priorAnswers = 0;
  resubmitted = 0;

  constructor(
    readonly name: string,
    private readonly broker: BrokerProcess,
    private readonly random: Random,
  ) {}

  /** Calls a tool; a reply lost to a kill (or a broker not up yet) is a LostReply. */
  async call(tool: string, args: Record<string, unknown>): Promise<Envelope> {
    try {
      if (!this.client || this.clientGeneration !== this.broker.generation) await this.reconnect();
      this.broker.noteCall();
      const result = await this.client!.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
      return result.structuredContent as Envelope;
    } catch (error) {
      this.client = undefined;
      throw new LostReply((error as Error).message);
    }
  }

  private async reconnect(): Promise<void> {
    const generation = this.broker.generation;
    const url = await this.broker.ready;
    await this.client?.close().catch(() => undefined);
    const client = new Client({ name: this.name, version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: CALL_TIMEOUT_MS });
    this.client = client;
    this.clientGeneration = generation;
  }

  /** Calls until a reply arrives, waiting out kills; the same arguments every time. */
  async callThrough(tool: string, args: Record<string, unknown>, counted: boolean): Promise<Envelope> {
    for (let lost = false; ; lost = true) {
      try {
        return await this.call(tool, args);
      } catch (error) {
        if (!(error instanceof LostReply)) throw error;
        if (counted && !lost) this.lostReplies++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  private async freshEpoch(): Promise<void> {
    const reply = await this.callThrough("lomi_connect", { workspaceId: WORKSPACE }, false);
    if (reply.status !== "ok") throw new Error(`${this.name}: lomi_connect answered ${reply.code}: ${reply.message}`);
    this.retryEpoch = (reply.data as { retryEpoch: string }).retryEpoch;
  }

  /** Writes file n: one logical operation, whatever kills happen while it is in flight. */
  async write(n: number): Promise<void> {
    let attempt = 0;
    if (!this.retryEpoch) await this.freshEpoch();
    for (;;) {
      const args = {
        workspaceId: WORKSPACE,
        path: `${this.name}-${n}.txt`,
        content: { text: `${this.name} wrote file ${n}\n` },
        expectedDiskRevision: null,
        retryEpoch: this.retryEpoch,
        requestKey: `${this.name}-${n}-${attempt}`,
      };
      const lostBefore = this.lostReplies;
      const reply = await this.callThrough("lomi_file_write", args, true);
      const retried = this.lostReplies > lostBefore;
      if (reply.status === "ok") {
        const { operation, duplicate } = reply.data as { operation: { operationId: string }; duplicate: boolean };
        if (retried && duplicate) this.priorAnswers++;
        this.operationIds.add(operation.operationId);
        return;
      }
      // An epoch of an earlier instance grants nothing new: the key was never reserved, so submit again.
      if (reply.code === "RETRY_EPOCH_INVALID" || reply.code === "RETRY_EPOCH_EXPIRED") {
        if (retried) this.resubmitted++;
        attempt++;
        await this.freshEpoch();
        continue;
      }
      // Nothing else should refuse a new file of this agent's: the ledger check tells what it means.
      this.refusals.push(`${this.name}: writing file ${n} answered ${reply.code}: ${reply.message}`);
      return;
    }
  }

  async run(stop: () => boolean): Promise<number> {
    let n = 0;
    while (!stop()) {
      await this.write(n++);
      await new Promise((resolve) => setTimeout(resolve, 20 + this.random.int(60)));
    }
    return n;
  }

  /** Every operation this client was told of, read back, and its events checked transition by transition. */
  async audit(figures: SoakFigures): Promise<void> {
    for (const operationId of this.operationIds) {
      const reply = await this.callThrough("lomi_operation_get", { operationId }, false);
      if (reply.status !== "ok") {
        figures.unreadableOperationIds++;
        figures.problems.push(`${this.name}: ${operationId} unreadable: ${reply.code}`);
      }
    }
    const last = new Map<string, OperationState>();
    let cursor: string | undefined;
    for (;;) {
      const reply = await this.callThrough("lomi_events_read", { workspaceId: WORKSPACE, limit: 200, ...(cursor ? { cursor } : {}) }, false);
      if (reply.status !== "ok") throw new Error(`${this.name}: lomi_events_read answered ${reply.code}`);
      const page = reply.data as {
        events: Array<{ operationId: string; previousState: OperationState | null; state: OperationState }>;
        nextCursor: string;
        hasMore: boolean;
      };
      for (const e of page.events) {
        const before = last.get(e.operationId) ?? null;
        const legal = e.previousState === before && (before === null ? e.state === "queued" || e.state === "running" : canTransition(before, e.state));
        if (!legal) {
          figures.illegalTransitions++;
          figures.problems.push(`${this.name}: ${e.operationId} ${e.previousState} -> ${e.state} after ${before}`);
        }
        last.set(e.operationId, e.state);
      }
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
  }

  async readable(operationId: string): Promise<boolean> {
    return (await this.callThrough("lomi_operation_get", { operationId }, false)).status === "ok";
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
  }
}

/**
 * When each kill lands: after so many calls reached the new instance (3 to 8 per agent, so every
 * instance gets past the agents' retries to new work), then so many milliseconds.
 */
export function killSchedule(seed: number, kills: number, clients: number): Array<{ afterCalls: number; thenMs: number }> {
  const random = seededRandom(seed);
  return Array.from({ length: kills }, () => ({ afterCalls: clients * (3 + random.int(6)), thenMs: random.int(40) }));
}

/**
 * Several agents write files through a broker process that is SIGKILLed at seeded moments and
 * restarted on the same store; then the simulated Lomi's ledger is checked against what they were
 * told. The kill schedule comes from the seed alone: the same seed kills at the same moments
 * (counted in calls reaching each instance, then milliseconds), whatever the machine's speed.
 */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const schedule = killSchedule(options.seed, options.kills, options.clients);
  const host = new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, options.seed);
  const sim = await serveHandlers(simulatorHandlers(host), 0);
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-soak-"));
  const broker = new BrokerProcess(sim.url, path.join(dir, "receipts.sqlite"), options.seed);
  const clients = Array.from({ length: options.clients }, (_, i) => new SoakClient(`soak-agent-${i + 1}`, broker, seededRandom(options.seed + i + 1)));
  const figures: SoakFigures = {
    seed: options.seed,
    kills: 0,
    clients: options.clients,
    operations: 0,
    lostReplies: 0,
    priorAnswers: 0,
    resubmitted: 0,
    ledgerDispatches: 0,
    doubleEffects: 0,
    lostReceipts: 0,
    unreadableOperationIds: 0,
    illegalTransitions: 0,
    problems: [],
  };
  try {
    await broker.start();
    let stopping = false;
    const running = clients.map((c) => c.run(() => stopping));
    for (const [k, moment] of schedule.entries()) {
      await broker.callsReached(moment.afterCalls);
      await new Promise((resolve) => setTimeout(resolve, moment.thenMs));
      await broker.kill();
      figures.kills++;
      await broker.start();
      if ((k + 1) % 10 === 0) options.log(`soak: ${k + 1}/${options.kills} kills`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    stopping = true;
    await Promise.all(running);

    for (const c of clients) await c.audit(figures);
    const entries = host.current.ledgerEntries();
    const dispatches = entries.filter(ofKind("dispatch")).filter((e) => e.tool === "lomi_file_write");
    figures.ledgerDispatches = dispatches.length;
    figures.doubleEffects += entries.filter((e) => e.kind === "replay").length;
    const byPath = new Map<string, number>();
    for (const d of dispatches) {
      const file = String(d.detail.args.path);
      byPath.set(file, (byPath.get(file) ?? 0) + 1);
      const owner = clients.find((c) => file.startsWith(`${c.name}-`));
      // A dispatch whose receipt its agent cannot read is an effect without a durable receipt.
      if (!owner || !(await owner.readable(d.operationId))) {
        figures.lostReceipts++;
        figures.problems.push(`dispatch ${d.operationId} of ${file} has no readable receipt`);
      }
    }
    for (const [file, count] of byPath) {
      if (count > 1) {
        figures.doubleEffects += count - 1;
        figures.problems.push(`${file} was dispatched ${count} times`);
      }
    }
    for (const c of clients) {
      figures.operations += c.operationIds.size;
      figures.lostReplies += c.lostReplies;
      figures.priorAnswers += c.priorAnswers;
      figures.resubmitted += c.resubmitted;
      figures.problems.push(...c.refusals);
    }
    return figures;
  } finally {
    for (const c of clients) await c.close();
    await broker.kill();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
