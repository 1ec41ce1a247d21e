import { spawn } from "node:child_process";
import { notApplicable } from "../harness-error.js";
import { McpConnection } from "../mcp-connection.js";
import type { BrokerAdapter, BrokerWiring, Capability } from "./broker-adapter.js";
import { killGroup, StdioProcessTransport } from "./stdio-process.js";

/** Splits a command line on spaces, keeping "quoted words" together. */
export function splitCommand(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The environment contract: where the bridge is, which store to keep, the seed, the armed hooks. */
export function brokerEnvironment(w: Pick<BrokerWiring, "nativeUrl" | "storePath" | "seed" | "faults">, start: number): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    LOMI_NATIVE_URL: w.nativeUrl,
    LOMI_STORE_PATH: w.storePath,
    LOMI_SEED: String(w.seed + start),
    LOMI_BROKER_FAULTS: (w.faults ?? []).join(","),
  };
}

/**
 * A broker started as a child process speaking MCP over stdio. A crash is a real SIGKILL of its
 * process group; a restart starts the same command on the same store file. One process serves one
 * connection.
 */
export class ChildProcessAdapter implements BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
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
    supportsFaults: boolean,
  ) {
    this.description = `broker command over stdio: ${command}`;
    this.capabilities = new Set<Capability>(["crash", "own-store", ...(supportsFaults ? (["faults"] as const) : [])]);
  }

  async start(wiring: BrokerWiring): Promise<void> {
    this.wiring = wiring;
  }

  private environment(): Record<string, string> {
    return brokerEnvironment(this.wiring!, this.starts++);
  }

  async connect(clientName: string): Promise<McpConnection> {
    if (this.connection) throw notApplicable("a stdio broker serves one MCP connection; this scenario needs a second one at the same time");
    const [cmd, ...args] = splitCommand(this.command);
    const transport = new StdioProcessTransport(cmd!, args, this.environment());
    this.transport = transport;
    try {
      this.connection = await McpConnection.open(transport, clientName, this.timeoutMs, () => transport.explain());
    } catch (error) {
      await this.crash();
      throw error;
    }
    return this.connection;
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

  /** A second process on the same store must exit on its own, saying why; one still running after the timeout was not refused. */
  async probeSecondInstance(): Promise<{ refused: boolean; detail: string }> {
    const [cmd, ...args] = splitCommand(this.command);
    const child = spawn(cmd!, args, { env: this.environment(), stdio: ["pipe", "ignore", "pipe"], detached: true });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.timeoutMs);
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve(code ?? -1);
      });
    });
    if (child.pid) killGroup(child.pid); // whatever it started goes with it
    if (exited === null) return { refused: false, detail: `still running after ${this.timeoutMs} ms on the same store` };
    return { refused: exited !== 0, detail: `exit ${exited}: ${stderr.trim().slice(-500)}` };
  }

  diagnostics(): string {
    const live = this.transport?.diagnostics();
    return [...this.stderr, ...(live ? [live] : [])].filter((s) => s !== "").join("\n--- restart ---\n");
  }
}
