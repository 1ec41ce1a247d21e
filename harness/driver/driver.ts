import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_CLOCK_START, type WorldSeed } from "../../protocol/control-api.js";
import type { BrokerAdapter, BrokerWiring } from "../adapters/broker-adapter.js";
import { makeAdapter } from "../adapters/index.js";
import { answeredReply, HISTORY_FORMAT, mirrorOf, type CallRecord, type FaultKind, type HistoryRecord, type ReplyRecord } from "../history/format.js";
import { harnessFault, HarnessError } from "../harness-error.js";
import type { CallAnswer, McpConnection } from "../connection/mcp-connection.js";
import type { RawToolResult } from "../contract-checks/reply-checks.js";
import type { RunParameters } from "../run/run-parameters.js";
import { SimulatorFixture } from "../lomi/simulator-fixture.js";
import { RecordingControl } from "./recording-control.js";

/** Timers as the harness found them at load: a scenario's fake or patched timers cannot stretch or shrink a wait. */
const realSetTimeout = globalThis.setTimeout;
/**
 * How long a call takes on the broker's timers where the harness keeps them (in-process): time passes
 * there while a client works, not only while it waits, as it does for a broker process. At 1 ms, the
 * background-settlement variant's store fill (4,096 commands on 16 terminals) queued about 34
 * commands behind each unsettled one and took 1.7× the CPU time it took on real timers; at 5 ms, 1.1×.
 */
const CALL_MS = 5;

/** What came back for a call: the tool result as received, or why none did. */
export type CallOutcome = CallAnswer;

export interface DriverOptions {
  run: RunParameters;
  world: WorldSeed;
  seed: number;
  /** What the history says produced it ("explore seed 7", "features/x.feature:12"). */
  source: string;
  /** The broker under test; by default the one the run parameters name. */
  adapter?: BrokerAdapter;
}

/** The run's adapter; one the harness cannot even make (a module it cannot load) is the harness's fault, never the broker's. */
async function adapterFor(run: RunParameters): Promise<BrokerAdapter> {
  try {
    return await makeAdapter(run);
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw harnessFault(`the harness could not make the broker adapter: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** "agent@2" is a second connection of the client "agent": the same pairing, another connection. */
export const clientNameOf = (connectionName: string) => connectionName.replace(/@.*$/, "");

/**
 * The one driver of a broker under test, for scenarios and explore alike: it starts the broker
 * (through the harness's adapters) against a simulated Lomi of its own, opens the agents' MCP
 * connections, crashes and restarts the broker, moves Lomi's clock and arms Lomi's faults (through
 * the recording control), and records all of it in the history format (lomi-history/1), stamped
 * with Lomi's clock: every call as sent and its reply as received or lost, every crash and restart,
 * every clock move, and at the end Lomi's pairings and effect ledger. The oracles judge that history.
 */
export class Driver {
  readonly records: HistoryRecord[] = [];
  readonly control: RecordingControl;
  /** Called with each new MCP connection (the World reports the broker's identity from the first). */
  onConnect: ((connection: McpConnection) => void) | undefined;
  private readonly connections = new Map<string, { connection: McpConnection; label: string }>();
  private connectionCount = 0;
  /** Lomi's clock as the history stamps it: it moves only when the driver moves it. */
  private now: number;
  private wiring: BrokerWiring;
  private finished = false;
  /** Calls in flight; calls that overlap share a `concurrent` mark (the history format's rule). */
  private inFlight = 0;
  private busy: { mark: string; calls: number; records: CallRecord[] } | undefined;
  private busyCount = 0;

  private constructor(
    readonly adapter: BrokerAdapter,
    readonly sim: SimulatorFixture,
    private readonly storeDir: string,
    world: WorldSeed,
    seed: number,
  ) {
    this.now = Date.parse(world.clockStart ?? DEFAULT_CLOCK_START);
    this.wiring = { nativeUrl: sim.url, storePath: path.join(storeDir, "receipts.sqlite"), seed };
    this.control = new RecordingControl(
      sim.url,
      {
        fault: (kind, detail) => this.fault(kind, detail),
        clockMoved: (ms) => (this.now += ms),
        worldReset: (w) => (this.now = Date.parse(w.clockStart ?? DEFAULT_CLOCK_START)),
      },
      sim.controlFetch,
    );
  }

  static async start(o: DriverOptions): Promise<Driver> {
    const adapter = o.adapter ?? (await adapterFor({ ...o.run, seed: o.seed }));
    const sim = await SimulatorFixture.start(o.world, o.seed, adapter.simulator);
    const driver = new Driver(adapter, sim, mkdtempSync(path.join(os.tmpdir(), "lomi-scenario-")), o.world, o.seed);
    driver.records.push({ type: "header", format: HISTORY_FORMAT, source: o.source, seed: o.seed, ledger: true });
    await adapter.start(driver.wiring);
    return driver;
  }

  /**
   * Waits `ms` for the broker to act in its own time (between reads of an operation it may settle
   * later). In real time, for every broker: it paces the reads, and --timeout-ms bounds the waiting
   * in real time. A broker whose timers the harness keeps (in-process) sees those `ms` pass on them
   * too, once they have passed: its timers then move with the harness's calls (CALL_MS each) and
   * waits alone, not with this machine's speed, so the same seed replays. Waits that overlap move
   * them as far as the longest.
   */
  async pause(ms: number): Promise<void> {
    const until = (this.adapter.timers?.now() ?? 0) + ms;
    await new Promise((resolve) => realSetTimeout(resolve, ms));
    this.adapter.timers?.advanceTo(until);
  }

  /** Lomi's time as the driver knows it (ms since the epoch). */
  lomiNow(): number {
    return this.now;
  }

  /** The connections open now, by name. */
  connectionNames(): string[] {
    return [...this.connections.keys()];
  }

  hasConnection(name: string): boolean {
    return this.connections.has(name);
  }

  /** The named connection, opened as its client's when it is not open yet. */
  async connection(name: string): Promise<McpConnection> {
    const open = this.connections.get(name);
    if (open) return open.connection;
    const connection = await this.adapter.connect(clientNameOf(name));
    this.connections.set(name, { connection, label: `${name}#${++this.connectionCount}` });
    this.onConnect?.(connection);
    return connection;
  }

  /** Calls a tool on the named connection and records the call; a lost reply also ends that connection. */
  async call(name: string, tool: string, args: Record<string, unknown>): Promise<CallOutcome> {
    const connection = await this.connection(name);
    const { label } = this.connections.get(name)!;
    this.adapter.timers?.advanceTo(this.adapter.timers.now() + CALL_MS);
    const sentAt = new Date(this.now).toISOString();
    const busy = this.enter();
    let answer: CallOutcome;
    try {
      answer = await connection.callUnchecked(tool, args);
    } finally {
      this.inFlight--;
    }
    let reply: ReplyRecord;
    if ("reply" in answer) {
      reply = answeredReply(answer.reply);
    } else {
      reply = { status: "lost", reason: answer.error };
      // No answer ends the connection; a JSON-RPC error is an answer on a connection that stands.
      if (!answer.rpcError && this.connections.get(name)?.connection === connection) this.connections.delete(name);
    }
    const record: CallRecord = {
      type: "call",
      agent: clientNameOf(name),
      connection: label,
      tool,
      args,
      sentAt,
      answeredAt: new Date(this.now).toISOString(),
      reply,
    };
    busy.records.push(record);
    if (busy.calls > 1) record.concurrent = busy.mark;
    this.records.push(record);
    return answer;
  }

  /** Counts a call in flight; the first call that overlaps another marks every call of the busy period as concurrent. */
  private enter(): NonNullable<Driver["busy"]> {
    if (this.inFlight === 0 || !this.busy) this.busy = { mark: `overlap-${++this.busyCount}`, calls: 0, records: [] };
    this.inFlight++;
    const busy = this.busy;
    busy.calls++;
    if (busy.calls === 2) for (const r of busy.records) r.concurrent = busy.mark;
    return busy;
  }

  /** The last calls and what came back (a reply, or why none did): the stuff of a failure report. */
  lastExchanges(
    count: number,
  ): Array<{ agent: string; tool: string; args: Record<string, unknown>; sent: string; reply: RawToolResult | undefined; error: string | undefined }> {
    return this.records
      .filter((r): r is CallRecord => r.type === "call")
      .slice(-count)
      .map((r) => ({
        agent: r.agent,
        tool: r.tool,
        args: r.args,
        // The arguments as the MCP client wrote them on the wire: a "__proto__" key included.
        sent: JSON.stringify(r.args),
        reply:
          r.reply.status === "answered"
            ? { isError: r.reply.isError, structuredContent: r.reply.structuredContent, content: r.reply.content ?? mirrorOf(r.reply.structuredContent) }
            : undefined,
        error: r.reply.status === "lost" ? r.reply.reason : undefined,
      }));
  }

  /** Something the harness did outside the agents' calls, stamped with Lomi's clock. */
  fault(kind: FaultKind, detail: Record<string, unknown>): void {
    this.records.push({ type: "fault", kind, at: new Date(this.now).toISOString(), detail });
  }

  /** Ends a named connection (a client going away); for a broker that serves one connection, the process with it. */
  async disconnect(name: string): Promise<void> {
    const open = this.connections.get(name);
    if (!open) return;
    this.connections.delete(name);
    await open.connection.close();
  }

  /** The broker dies (SIGKILL for a process): its connections die with it. `restart` starts a new instance on the same store. */
  async crash(detail: Record<string, unknown> = {}): Promise<void> {
    // Where Lomi's ledger stood when the broker died: what was unfinished then, and what Lomi did after.
    const ledgerSequence = (await this.control.ledger()).at(-1)?.sequence ?? 0;
    this.fault("broker-crash", { ...detail, ledgerSequence });
    this.connections.clear();
    await this.adapter.crash();
  }

  async restart(): Promise<void> {
    await this.adapter.restart();
  }

  /** A new broker instance on the same store with these fault hooks armed (each fires once). */
  async armFaults(faults: string[]): Promise<void> {
    await this.crash({ reason: `a new instance with the fault hooks ${faults.join(", ")} armed` });
    this.wiring = { ...this.wiring, faults };
    await this.adapter.start(this.wiring);
  }

  /** Appends Lomi's pairings and its effect ledger, once: the ground truth the ledger oracles compare with. */
  async finish(): Promise<HistoryRecord[]> {
    if (!this.finished) {
      this.finished = true;
      for (const p of await this.control.pairings()) this.records.push({ type: "pairing", pairingId: p.pairingId, agent: p.clientName });
      for (const entry of await this.control.ledger()) this.records.push({ type: "ledger", entry });
    }
    return this.records;
  }

  /** Ends everything it started: the broker, its simulated Lomi, the store. */
  async stop(): Promise<void> {
    try {
      await this.adapter.stop();
    } finally {
      await this.sim.stop();
      rmSync(this.storeDir, { recursive: true, force: true });
    }
  }
}
