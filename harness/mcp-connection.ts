import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Envelope } from "../protocol/envelope.js";
import { violation } from "./harness-error.js";
import { checkEnvelope, type RawToolResult } from "./reply-checks.js";

export interface Reply {
  tool: string;
  args: Record<string, unknown>;
  raw: RawToolResult;
  envelope: Envelope;
}

export interface PublishedTools {
  tools: Array<{ name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> }>;
}

/** One MCP client connection to the broker under test, as one named agent. */
export class McpConnection {
  private constructor(
    private readonly client: Client,
    readonly clientName: string,
    private readonly timeoutMs: number,
  ) {}

  static async open(transport: Transport, clientName: string, timeoutMs: number): Promise<McpConnection> {
    const client = new Client({ name: clientName, version: "1.0.0" });
    await client.connect(transport, { timeout: timeoutMs });
    return new McpConnection(client, clientName, timeoutMs);
  }

  listTools(): Promise<PublishedTools> {
    return this.client.listTools(undefined, { timeout: this.timeoutMs }) as Promise<PublishedTools>;
  }

  /** Calls a tool and checks the reply's envelope (the ENV rules) before anyone reads it. */
  async call(tool: string, args: Record<string, unknown>): Promise<Reply> {
    let raw: RawToolResult;
    try {
      raw = (await this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.timeoutMs })) as RawToolResult;
    } catch (error) {
      throw violation(`${tool} did not answer with a tool result: ${(error as Error).message}`);
    }
    return { tool, args, raw, envelope: checkEnvelope(tool, raw) };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
