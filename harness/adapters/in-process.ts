import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { systemClock } from "../../protocol/ports.js";
import { VirtualTimers } from "../../protocol/virtual-timers.js";
import { Broker, type BrokerParts } from "../../reference-broker/broker.js";
import { parseFaultPoints } from "../../reference-broker/fault-hooks.js";
import { connectMcpServer } from "../../reference-broker/mcp-server.js";
import { inProcessFetch } from "../../simulator/in-process-route.js";
import { McpConnection } from "../connection/mcp-connection.js";
import { harnessFault, noAnswer } from "../harness-error.js";
import { afterStart, type BrokerAdapter, type BrokerWiring } from "./broker-adapter.js";
import { type Capability } from "../run/capabilities.js";
import { messageOf } from "../../protocol/errors.js";

/** The reference broker in this process over MCP's in-memory transport: the fastest way to run the suite. */
export class InProcessAdapter implements BrokerAdapter {
  readonly description = "reference broker, in-process (MCP in-memory transport)";
  readonly capabilities: ReadonlySet<Capability> = new Set(["crash", "multi-connection", "faults", "own-store"]);
  readonly simulator = { kind: "in-process" } as const;
  /** Every instance's timers, across restarts: they move only while the harness waits. */
  readonly timers = new VirtualTimers();
  private broker: Broker | undefined;
  private wiring: BrokerWiring | undefined;
  private starts = 0;
  private readonly connections: McpConnection[] = [];

  /** `parts`: a defective part for a deliberately broken broker (mutants/), run in-process by explore. */
  constructor(
    private readonly timeoutMs: number,
    private readonly parts?: BrokerParts,
  ) {}

  async start(wiring: BrokerWiring): Promise<void> {
    this.wiring = wiring;
    this.broker = await Broker.start({
      nativeUrl: wiring.nativeUrl,
      fetch: inProcessFetch,
      storePath: wiring.storePath,
      hostClock: systemClock,
      timers: this.timers,
      seed: wiring.seed + this.starts++,
      faults: parseFaultPoints(wiring.faults?.join(",")),
      parts: this.parts,
    });
  }

  async connect(clientName: string): Promise<McpConnection> {
    if (!this.broker) throw harnessFault("the in-process broker was not started");
    // An instance that crashed at a fault hook is dead, as a killed process is: no connection reaches it.
    if (this.broker.crashedAt) throw noAnswer(`the broker crashed at its fault hook ${this.broker.crashedAt}; no instance runs to connect to`);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await connectMcpServer(this.broker, serverSide);
    const connection = await McpConnection.open(clientSide, clientName, this.timeoutMs);
    this.connections.push(connection);
    return connection;
  }

  /** The instance is abandoned: its store handle closes without any write, as a killed process's would. */
  async crash(): Promise<void> {
    this.broker?.close();
    this.broker = undefined;
    for (const c of this.connections.splice(0)) await c.close();
  }

  async restart(): Promise<void> {
    await this.start(afterStart(this.wiring));
  }

  async stop(): Promise<void> {
    await this.crash();
  }

  async probeSecondInstance(): Promise<{ refused: boolean; detail: string }> {
    const w = afterStart(this.wiring);
    try {
      // The same broker (a mutant's parts included) a second time, as a second process of its command would be.
      const second = await Broker.start({
        nativeUrl: w.nativeUrl,
        fetch: inProcessFetch,
        storePath: w.storePath,
        seed: w.seed + 1000,
        hostClock: systemClock,
        timers: this.timers,
        parts: this.parts,
        // Another process of the command would have a pid of its own, and find the first's alive.
        processId: process.pid + 1,
      });
      second.close();
      return { refused: false, detail: "the second instance opened the store" };
    } catch (error) {
      return { refused: true, detail: messageOf(error) };
    }
  }

  diagnostics(): string {
    return "";
  }
}
