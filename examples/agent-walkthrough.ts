// The source's walk-through as an agent does it, over MCP, knowing only tools/list and the README:
// list the workspaces, connect, create a terminal, read the operation until it settles, refresh the
// layout, run a command to completion, read its output, and retry a request whose reply was lost.
// Run: node --import tsx examples/agent-walkthrough.ts   (prints every exchange as Markdown)
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export interface Exchange {
  step: string;
  request: { name: string; arguments: Record<string, unknown> };
  /** Undefined for the request whose reply was lost. */
  reply?: unknown;
}

type Reply = { status: string; data: Record<string, any> };
const SETTLED = ["succeeded", "failed", "cancelled", "outcome_unknown"];
const POLL_MS = 250;

/** Runs the walk-through against a broker that the client is connected to; answers every exchange. */
export async function walkThrough(client: Client): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const call = async (step: string, name: string, args: Record<string, unknown>, record = true): Promise<Reply> => {
    const result = await client.callTool({ name, arguments: args });
    const reply = result.structuredContent as Reply;
    if (record) exchanges.push({ step, request: { name, arguments: args }, reply });
    if (result.isError) throw new Error(`${name} answered ${JSON.stringify(reply)}`);
    return reply;
  };
  /** Reads the operation until it settles; records the first read and, if it was not settled yet, the settled one. */
  const settle = async (step: string, operationId: string) => {
    let read = await call(step, "lomi_operation_get", { operationId });
    if (SETTLED.includes(read.data.operation.state)) return read.data.operation;
    while (!SETTLED.includes(read.data.operation.state)) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      read = await call(step, "lomi_operation_get", { operationId }, false);
    }
    exchanges.push({ step: `${step}: settled`, request: { name: "lomi_operation_get", arguments: { operationId } }, reply: read });
    return read.data.operation;
  };

  await client.listTools(); // the SDK client then checks every reply against the published output schemas
  const list = await call("1. List the workspaces", "lomi_workspace_list", {});
  const workspaceId: string = list.data.workspaces.find((w: { approved: boolean }) => w.approved).workspaceId;
  const connected = await call("2. Connect to the approved workspace", "lomi_connect", { workspaceId });
  const { retryEpoch, domainRevision } = connected.data;

  const created = await call("3. Create a terminal", "lomi_terminal_create", {
    workspaceId,
    cwdRelative: "",
    title: "Tests",
    expectedRevision: domainRevision,
    retryEpoch,
    requestKey: "create-test-terminal-1",
  });
  const terminal = await settle("4. Read the operation until it settles", created.data.operation.operationId);
  const { terminalSessionId } = terminal.result;

  await call("5. Refresh the layout before the next layout mutation", "lomi_panel_list", { workspaceId });

  const runArgs = { workspaceId, terminalSessionId, command: "npm test", retryEpoch, requestKey: "run-tests-1" };
  // The reply to this first request is lost on the way back (here: the agent drops it unread).
  await client.callTool({ name: "lomi_terminal_run", arguments: runArgs });
  exchanges.push({ step: "6. Run the tests; the reply is lost", request: { name: "lomi_terminal_run", arguments: runArgs } });
  const retried = await call("7. Retry lomi_terminal_run after a lost reply: the same retryEpoch, requestKey and arguments", "lomi_terminal_run", runArgs);
  await call("8. Or find it by its retry identity", "lomi_operation_lookup", { retryEpoch, requestKey: "run-tests-1", tool: "lomi_terminal_run" });
  await settle("9. Read the command's operation until it settles", retried.data.operation.operationId);
  await call("10. Read the terminal's output", "lomi_terminal_read", { workspaceId, terminalSessionId });
  return exchanges;
}

/** The exchanges as Markdown: each step's request and reply JSON. */
export function asMarkdown(exchanges: Exchange[]): string {
  return exchanges
    .map((e) => {
      const reply = e.reply === undefined ? "(no reply arrives)\n" : `\`\`\`json\n${JSON.stringify(e.reply, null, 2)}\n\`\`\`\n`;
      return `#### ${e.step}\n\n\`\`\`json\n${JSON.stringify(e.request)}\n\`\`\`\n\n${reply}`;
    })
    .join("\n");
}

async function main(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["bin/lomi-broker.js", "--simulate", "--approve-pairings", ...process.argv.slice(2)],
    stderr: "inherit",
  });
  const client = new Client({ name: "agent-walkthrough", version: "1.0.0" });
  await client.connect(transport);
  try {
    process.stdout.write(asMarkdown(await walkThrough(client)));
  } finally {
    await client.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
