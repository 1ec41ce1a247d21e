// One benchmark agent: an MCP SDK client on any transport, with the few calls the figures need. It
// speaks only the published tools, so it measures any broker the same way.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { WorldSeed } from "../protocol/control-api.js";
import type { Envelope } from "../protocol/envelope.js";
import { readWorldFile } from "../simulator/world-file.js";

export const BENCH_WORKSPACE = "ws-alpha";
const PROJECT = "proj-app";
/** Exits 0 at once: an admission that dispatches and settles in the same call. */
export const QUICK_COMMAND = "true";
/** Runs for an hour of Lomi's (virtual, standing) clock: its operation, and every one queued behind it, stays unfinished. */
export const ENDLESS_COMMAND = "npm run dev";

/** The default world, plus a command that succeeds at once. */
export function benchWorld(): WorldSeed {
  const world = readWorldFile();
  return { ...world, commands: { ...world.commands, [QUICK_COMMAND]: { output: "", durationMs: 0, exitCode: 0 } } };
}

interface Receipt {
  operationId: string;
  state: string;
  result: Record<string, unknown> | null;
}

export class BenchAgent {
  private retryEpoch = "";
  private terminalSessionId = "";
  private keys = 0;

  private constructor(
    readonly client: Client,
    readonly name: string,
  ) {}

  static async connect(transport: Transport, name: string): Promise<BenchAgent> {
    const client = new Client({ name, version: "1.0.0" });
    await client.connect(transport);
    return new BenchAgent(client, name);
  }

  /** A tool's data; an error envelope is a broken benchmark, never a sample. */
  async call<D>(tool: string, args: Record<string, unknown>): Promise<D> {
    const envelope = (await this.client.callTool({ name: tool, arguments: args })).structuredContent as Envelope<D> | undefined;
    if (envelope?.status !== "ok") throw new Error(`${this.name}: ${tool} answered ${JSON.stringify(envelope)}`);
    return envelope.data;
  }

  /** lomi_connect, then a terminal of this agent's own; answers the workspace's domainRevision after it. */
  async joinWithTerminal(): Promise<void> {
    const joined = await this.call<{ retryEpoch: string; domainRevision: string }>("lomi_connect", { workspaceId: BENCH_WORKSPACE });
    this.retryEpoch = joined.retryEpoch;
    const { operation } = await this.call<{ operation: Receipt }>("lomi_terminal_create", {
      workspaceId: BENCH_WORKSPACE,
      projectId: PROJECT,
      cwdRelative: "",
      title: this.name,
      expectedRevision: joined.domainRevision,
      retryEpoch: this.retryEpoch,
      requestKey: `${this.name}-terminal`,
    });
    if (operation.state !== "succeeded") throw new Error(`${this.name}: lomi_terminal_create settled ${operation.state}`);
    this.terminalSessionId = String(operation.result!.terminalSessionId);
  }

  /** One admission of `command` in this agent's terminal, under a request key never used before. */
  async run(command: string): Promise<Receipt> {
    const { operation, duplicate } = await this.call<{ operation: Receipt; duplicate: boolean }>("lomi_terminal_run", {
      workspaceId: BENCH_WORKSPACE,
      projectId: PROJECT,
      terminalSessionId: this.terminalSessionId,
      command,
      retryEpoch: this.retryEpoch,
      requestKey: `${this.name}-run-${this.keys++}`,
    });
    if (duplicate) throw new Error(`${this.name}: a fresh request key answered a prior operation`);
    return operation;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/**
 * `count` agents, each on a terminal of its own. They join one after another: a terminal's creation
 * changes the workspace's domainRevision, which the next creation must name.
 */
export async function agentsOnTerminals(count: number, transport: (name: string) => Promise<Transport> | Transport): Promise<BenchAgent[]> {
  const agents: BenchAgent[] = [];
  for (let i = 0; i < count; i++) {
    const name = `bench-agent-${i + 1}`;
    const agent = await BenchAgent.connect(await transport(name), name);
    await agent.joinWithTerminal();
    agents.push(agent);
  }
  return agents;
}
