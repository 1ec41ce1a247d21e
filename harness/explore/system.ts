import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { WorldSeed } from "../../protocol/control-api.js";
import type { BrokerAdapter } from "../adapters/broker-adapter.js";
import { makeAdapter } from "../adapters/index.js";
import type { McpConnection } from "../mcp-connection.js";
import type { RunParameters } from "../run-parameters.js";
import type { SimControl } from "../sim-control.js";
import { SimulatorFixture } from "../simulator-fixture.js";
import { stopInterception } from "../../simulator/interception.js";
import { mirrorOf } from "./checker/envelope.js";
import { AGENTS } from "./model.js";
import { HISTORY_FORMAT, type FaultKind, type HistoryRecord, type ReplyRecord } from "./history.js";

export type Envelope = { status: "ok"; data: Record<string, any> } | { status: "error"; code: string; message: string };

/**
 * One explore run's system under test: the broker (through the harness's adapters), a simulated Lomi
 * of its own, and the recorder that writes every call and fault into the history, stamped with Lomi's
 * clock. Lomi's clock moves only when the run moves it, so the recorder keeps its own copy.
 */
export class ExploreSystem {
  readonly records: HistoryRecord[] = [];
  /** The labels of the steps this run executed, in order. */
  readonly steps: string[] = [];
  private readonly connections = new Map<string, { connection: McpConnection; label: string }>();
  private connectionCount = 0;
  private now: number;

  private constructor(
    readonly adapter: BrokerAdapter,
    private readonly sim: SimulatorFixture,
    readonly control: SimControl,
    private readonly storeDir: string,
    world: WorldSeed,
  ) {
    this.now = Date.parse(world.clockStart ?? "2026-01-05T09:00:00.000Z");
  }

  /** `adapter` makes the broker under test; by default the one the run parameters name. */
  static async start(run: RunParameters, world: WorldSeed, seed: number, source: string, adapter?: BrokerAdapter): Promise<ExploreSystem> {
    adapter ??= await makeAdapter({ ...run, seed });
    // An in-process simulator of an earlier run (a bench measures both) would answer this run's control calls.
    if (adapter.simulator.kind !== "in-process") stopInterception();
    const sim = await SimulatorFixture.start(world, seed, adapter.simulator);
    const storeDir = mkdtempSync(path.join(os.tmpdir(), "lomi-explore-"));
    const system = new ExploreSystem(adapter, sim, sim.control(), storeDir, world);
    system.records.push({ type: "header", format: HISTORY_FORMAT, source, seed, ledger: true });
    await adapter.start({ nativeUrl: sim.url, storePath: path.join(storeDir, "receipts.sqlite"), seed });
    return system;
  }

  /** One MCP connection per agent; a broker that serves one connection at a time is restarted to switch agents. */
  private async connection(agent: string): Promise<{ connection: McpConnection; label: string }> {
    const open = this.connections.get(agent);
    if (open) return open;
    if (!this.adapter.capabilities.has("multi-connection") && this.connections.size > 0) {
      await this.crash({ reason: `a new connection for ${agent}: this broker serves one connection at a time` });
    }
    const connection = await this.adapter.connect(agent);
    const entry = { connection, label: `${agent}#${++this.connectionCount}` };
    this.connections.set(agent, entry);
    return entry;
  }

  /**
   * Who takes an agent's step. A broker that serves one connection at a time is restarted to switch
   * agents, so there the agent already connected takes it; reads by the other pairing, the stranger
   * and reconnects still switch.
   */
  agentFor<A extends string>(agent: A): A {
    if (this.adapter.capabilities.has("multi-connection")) return agent;
    const open = [...this.connections.keys()][0] as A | undefined;
    return open !== undefined && (AGENTS as readonly string[]).includes(open) ? open : agent;
  }

  /** Whether the agent has a live connection (its retry epochs belong to it). */
  connected(agent: string): boolean {
    return this.connections.has(agent);
  }

  /** Calls a tool as an agent and records the exchange; answers the envelope, or undefined when no reply came. */
  async call(agent: string, tool: string, args: Record<string, unknown>, concurrent?: string): Promise<Envelope | undefined> {
    const { connection, label } = await this.connection(agent);
    // Replies are judged by the checker, not here: a reply that breaks the envelope rules is recorded as it came.
    const answer = await connection.callUnchecked(tool, args);
    let reply: ReplyRecord;
    if ("reply" in answer) {
      const { structuredContent, isError, content } = answer.reply;
      reply = { status: "answered", ...(isError !== undefined ? { isError } : {}), structuredContent, ...(isDeepStrictEqual(content, mirrorOf(structuredContent)) ? {} : { content }) };
    } else {
      reply = { status: "lost", reason: answer.error };
      this.connections.delete(agent);
    }
    const at = new Date(this.now).toISOString();
    this.records.push({ type: "call", agent, connection: label, tool, args, sentAt: at, answeredAt: at, ...(concurrent ? { concurrent } : {}), reply });
    if (reply.status !== "answered") return undefined;
    const sc = reply.structuredContent as Envelope | undefined;
    return sc && typeof sc === "object" && (sc.status === "ok" || sc.status === "error") ? sc : undefined;
  }

  fault(kind: FaultKind, detail: Record<string, unknown>): void {
    this.records.push({ type: "fault", kind, at: new Date(this.now).toISOString(), detail });
  }

  /** Ends an agent's connection (a client reconnecting); for a process broker that is a new process. */
  async disconnect(agent: string): Promise<void> {
    const open = this.connections.get(agent);
    if (!open) return;
    if (!this.adapter.capabilities.has("multi-connection")) return this.crash({ reason: `${agent} reconnects: a new broker process` });
    this.connections.delete(agent);
    await open.connection.close();
  }

  /** The broker dies (SIGKILL for a process) and a new instance opens the same store. */
  async crash(detail: Record<string, unknown>): Promise<void> {
    this.fault("broker-crash", detail);
    await this.adapter.crash();
    this.connections.clear();
    await this.adapter.restart();
  }

  async advanceClock(ms: number, kind: "clock-advance" | "clock-jump" = "clock-advance"): Promise<void> {
    await this.control.advanceClock(ms);
    this.now += ms;
    this.fault(kind, { ms });
  }

  /** Appends Lomi's pairings and its effect ledger: the ground truth the ledger invariants compare with. */
  async finish(): Promise<HistoryRecord[]> {
    for (const p of await this.control.pairings()) this.records.push({ type: "pairing", pairingId: p.pairingId, agent: p.clientName });
    for (const entry of await this.control.ledger()) this.records.push({ type: "ledger", entry });
    return this.records;
  }

  async stop(): Promise<void> {
    await this.adapter.stop();
    await this.sim.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
