import { notApplicable } from "../harness-error.js";
import { McpConnection } from "../mcp-connection.js";
import type { BrokerAdapter, BrokerWiring, Capability } from "./broker-adapter.js";
import { StdioProcessTransport } from "./stdio-process.js";

/** Splits a command line on spaces, keeping "quoted words" together. */
export function splitCommand(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/**
 * A broker started as a child process speaking MCP over stdio. A crash is a real SIGKILL of its
 * process group; a restart starts the same command on the same store file. One process serves one
 * connection.
 */
export class ChildProcessAdapter implements BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability> = new Set(["crash"]);
  readonly simulator = { kind: "fresh-port" } as const;
  private wiring: BrokerWiring | undefined;
  private transport: StdioProcessTransport | undefined;
  private connection: McpConnection | undefined;
  /** stderr of every process this scenario started, in order. */
  private readonly stderr: string[] = [];
  private starts = 0;

  constructor(
    private readonly command: string,
    private readonly timeoutMs: number,
  ) {
    this.description = `broker command over stdio: ${command}`;
  }

  async start(wiring: BrokerWiring): Promise<void> {
    this.wiring = wiring;
  }

  async connect(clientName: string): Promise<McpConnection> {
    if (this.connection) throw notApplicable("a stdio broker serves one MCP connection; this scenario needs a second one at the same time");
    const [cmd, ...args] = splitCommand(this.command);
    const w = this.wiring!;
    const transport = new StdioProcessTransport(cmd!, args, {
      ...(process.env as Record<string, string>),
      LOMI_NATIVE_URL: w.nativeUrl,
      LOMI_STORE_PATH: w.storePath,
      LOMI_SEED: String(w.seed + this.starts++),
    });
    this.transport = transport;
    try {
      this.connection = await McpConnection.open(transport, clientName, this.timeoutMs, () => transport.explain());
    } catch (error) {
      await this.crash();
      throw error;
    }
    return this.connection;
  }

  async disconnect(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.connection = undefined;
    if (!transport) return;
    await transport.end(this.timeoutMs);
    this.stderr.push(transport.diagnostics());
  }

  async crash(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.connection = undefined;
    if (!transport) return;
    await transport.close();
    this.stderr.push(transport.diagnostics());
  }

  async restart(): Promise<void> {
    // The next connect starts a new process on the same store.
  }

  async stop(): Promise<void> {
    await this.crash();
  }

  diagnostics(): string {
    const live = this.transport?.diagnostics();
    return [...this.stderr, ...(live ? [live] : [])].filter((s) => s !== "").join("\n--- restart ---\n");
  }
}
