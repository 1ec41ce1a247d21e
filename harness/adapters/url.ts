import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { brokerRequestInit } from "../connection/broker-request.js";
import { notApplicable } from "../harness-error.js";
import { McpConnection } from "../connection/mcp-connection.js";
import type { BrokerAdapter } from "./broker-adapter.js";
import type { Capability } from "../run/capabilities.js";
import type { SimulatorPlacement } from "../lomi/simulator-fixture.js";

/**
 * A broker that is already running, reached over Streamable HTTP. The harness cannot rewire its
 * native bridge, so the broker was started against the simulator the harness serves on a fixed port
 * (`--native-port`); every scenario resets that simulator. Each MCP session is one connection, so
 * scenarios with several agents run; the harness cannot crash it, so crash scenarios do not apply.
 */
export class UrlAdapter implements BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability> = new Set(["multi-connection"]);
  readonly simulator: SimulatorPlacement;
  private readonly sessions: Array<{ transport: StreamableHTTPClientTransport; connection: McpConnection }> = [];

  constructor(
    private readonly url: URL,
    nativePort: number,
    private readonly timeoutMs: number,
  ) {
    this.description = `broker at ${url.href} (Streamable HTTP)`;
    this.simulator = { kind: "fixed-port", port: nativePort };
  }

  async start(): Promise<void> {
    // Already running, already wired to the fixed native port.
  }

  async connect(clientName: string): Promise<McpConnection> {
    const transport = new StreamableHTTPClientTransport(this.url, { requestInit: brokerRequestInit() });
    const connection = await McpConnection.open(transport, clientName, this.timeoutMs);
    this.sessions.push({ transport, connection });
    return connection;
  }

  async crash(): Promise<void> {
    throw notApplicable(`${this.description} runs outside the harness: it cannot be crashed and restarted`);
  }

  async restart(): Promise<void> {
    throw notApplicable(`${this.description} runs outside the harness: it cannot be crashed and restarted`);
  }

  /** Ends this scenario's MCP sessions, so a long-running broker does not keep them. */
  async stop(): Promise<void> {
    for (const session of this.sessions.splice(0)) await this.end(session);
  }

  private async end({ transport, connection }: (typeof this.sessions)[number]): Promise<void> {
    await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, this.timeoutMs).unref())]);
    await connection.close();
  }

  diagnostics(): string {
    return ""; // the broker's log is where its operator keeps it
  }
}
