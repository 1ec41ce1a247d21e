// A reference agent: a small scripted MCP client (the official SDK's) that keeps every agent rule of
// docs/spec.md (AGENT-01 … AGENT-14) through lost replies, a broker restart, empty events pages, a
// denial, outcome_unknown and a full store. docs/agents.md walks through it; examples/agents/mutant-agents.ts
// breaks it one rule at a time. Run it through the recorder, with faults, and judge what it did:
//
//   node --import tsx examples/agents/reference-agent.ts -- node bin/lomi-conformance.js record \
//     --history agent.jsonl --faults "lose-reply:lomi_terminal_run,restart:lomi_terminal_run#3" \
//     -- node bin/lomi-broker.js --native-url http://127.0.0.1:4545 --store receipts.sqlite
//   node bin/lomi-conformance.js check agent.jsonl
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

/** What a call came back with, as the agent reads it: a Lomi envelope, or nothing (the reply was lost). */
export type Reply = { kind: "ok"; data: Record<string, any> } | { kind: "error"; code: string; message: string } | { kind: "lost"; reason: string };

export interface Receipt {
  operationId: string;
  tool: string;
  workspaceId: string;
  state: string;
  effectState: string;
  result: Record<string, any> | null;
  error: { code: string; message: string } | null;
}

/** What the agent keeps of a workspace it connected to. */
export interface Connection {
  workspaceId: string;
  retryEpoch: string;
  projects: Array<{ projectId: string; name: string }>;
  /** The domainRevision last shown, and whether it was shown after the agent's own last layout change. */
  revision: string;
  revisionFresh: boolean;
}

export interface Terminal {
  workspaceId: string;
  terminalSessionId: string;
  leaseId: string;
  /** The last inputSequence sent under the lease. */
  sequence: number;
}

export interface AgentOptions {
  /** Waits `ms` of real time before reading something again (default: setTimeout). */
  pause?: (ms: number) => Promise<void>;
  /** Real time between two reads of an unsettled operation (default 25 ms). */
  pollMs?: number;
  /** Reads of one thing before the agent gives up on it (default 400). */
  patience?: number;
  /** Files the last part writes, one operation each: enough to fill a small store (default 3). */
  files?: number;
}

/** The agent met something it cannot handle: the session stops, said plainly. */
export class AgentGaveUp extends Error {
  override readonly name = "AgentGaveUp";
}

const SETTLED = new Set(["succeeded", "failed", "cancelled", "outcome_unknown"]);

/** The observation that shows each tool's actual resource, for the tools this agent uses (after outcome_unknown). */
const INSPECT: Record<string, (receipt: Receipt, terminal: Terminal | undefined) => [string, Record<string, unknown>]> = {
  lomi_terminal_create: (r) => ["lomi_panel_list", { workspaceId: r.workspaceId }],
  lomi_terminal_run: (r, t) =>
    t ? ["lomi_terminal_read", { workspaceId: r.workspaceId, terminalSessionId: t.terminalSessionId }] : ["lomi_panel_list", { workspaceId: r.workspaceId }],
  lomi_file_write: (r) => ["lomi_directory_list", { workspaceId: r.workspaceId, path: "" }],
  lomi_settings_update: (r) => ["lomi_settings_read", { workspaceId: r.workspaceId }],
};

/**
 * The agent, its session in parts. Each part is a method a mutant agent overrides to break one rule;
 * the primitives under them (call, submit, recoverLost, settle, followEvents…) are where the rules
 * are kept.
 */
export class ReferenceAgent {
  protected readonly connections = new Map<string, Connection>();
  /** Where the agent left each workspace's events feed. */
  protected readonly cursors = new Map<string, string>();
  /** Settled operations the agent is done with: what it may ask a full store to forget. */
  protected readonly done: string[] = [];
  protected terminal: Terminal | undefined;
  private keys = 0;

  constructor(
    protected readonly client: Client,
    protected readonly o: AgentOptions = {},
  ) {}

  /** The whole session. */
  async run(): Promise<void> {
    await this.client.listTools();
    const alpha = await this.workspaceNamed("Alpha");
    await this.connect(alpha);
    this.terminal = await this.createTerminal(alpha, "Tests");
    await this.createTerminal(alpha, "Build");
    await this.runTests(this.terminal);
    await this.buildAcrossRestart(this.terminal);
    const beta = await this.workspaceNamed("Beta");
    await this.connect(beta);
    await this.writeNotes(beta);
    await this.allowNetwork(alpha);
    await this.devServer(this.terminal);
    await this.writeFiles(alpha);
  }

  // ---- the session's parts ----

  /** The workspace Lomi lists under a name: by its ID, never the name itself (AGENT-02). */
  protected async workspaceNamed(name: string): Promise<string> {
    const { workspaces } = await this.observe("lomi_workspace_list", {});
    const found = (workspaces as Array<{ workspaceId: string; name: string; approved: boolean }>).find((w) => w.name === name && w.approved);
    if (!found) throw new AgentGaveUp(`no approved workspace named ${name}`);
    return found.workspaceId;
  }

  protected async connect(workspaceId: string): Promise<Connection> {
    const data = await this.observe("lomi_connect", { workspaceId });
    const connection: Connection = { workspaceId, retryEpoch: data.retryEpoch, projects: data.projects, revision: data.domainRevision, revisionFresh: true };
    this.connections.set(workspaceId, connection);
    return connection;
  }

  /** A terminal, on a layout revision read since the agent's own last layout change (AGENT-05), read until it settles (AGENT-04). */
  protected async createTerminal(workspaceId: string, title: string): Promise<Terminal> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const expectedRevision = await this.layoutRevision(workspaceId);
      const admitted = await this.submit("lomi_terminal_create", {
        workspaceId,
        cwdRelative: "",
        title,
        expectedRevision,
        retryEpoch: this.epoch(workspaceId),
        requestKey: this.key("create-terminal"),
      });
      if (admitted.kind === "refused" && admitted.code === "REVISION_CONFLICT") {
        // The layout moved: read it again and decide again, under a fresh key (AGENT-10).
        this.connections.get(workspaceId)!.revisionFresh = false;
        continue;
      }
      const receipt = await this.settle(this.admitted(admitted));
      this.layoutChanged(workspaceId);
      if (receipt.state !== "succeeded") throw new AgentGaveUp(`the terminal was not created: ${receipt.state}`);
      return { workspaceId, terminalSessionId: receipt.result!.terminalSessionId, leaseId: receipt.result!.leaseId, sequence: 0 };
    }
    throw new AgentGaveUp("the layout kept moving");
  }

  /** `npm test`, followed on the events feed until it settles (AGENT-06). */
  protected async runTests(terminal: Terminal): Promise<void> {
    const receipt = this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm test", "run-tests")));
    await this.followEvents(terminal.workspaceId, receipt.operationId);
  }

  /** `npm run build`, across whatever the broker goes through; after outcome_unknown, inspected and run again on purpose. */
  protected async buildAcrossRestart(terminal: Terminal): Promise<void> {
    const receipt = await this.settle(this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm run build", "build"))));
    // settle() inspected the terminal (AGENT-07); the build's effect is unknown, so it is run again: a new request, a fresh key.
    if (receipt.state === "outcome_unknown")
      await this.settle(this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm run build", "build-again"))));
  }

  /** A file in the workspace's project named "web": with two projects approved, a lost reply is found by key with its projectId (AGENT-09). */
  protected async writeNotes(workspaceId: string): Promise<void> {
    const project = this.connections.get(workspaceId)!.projects.find((p) => p.name === "web") ?? this.connections.get(workspaceId)!.projects[0]!;
    const args = {
      workspaceId,
      projectId: project.projectId,
      path: "NOTES.md",
      expectedDiskRevision: null,
      content: { text: "Notes\n" },
      retryEpoch: this.epoch(workspaceId),
      requestKey: this.key("write-notes"),
    };
    await this.settle(this.admitted(await this.submit("lomi_file_write", args)));
  }

  /** A permissions change waits for the user; a denial is the answer, and stays one (AGENT-11). */
  protected async allowNetwork(workspaceId: string): Promise<Receipt> {
    const { sections } = await this.observe("lomi_settings_read", { workspaceId });
    return this.settle(this.admitted(await this.submit("lomi_settings_update", this.networkChange(workspaceId, sections.permissions.settingsRevision))));
  }

  /** A dev server, stopped with Ctrl+C: the interrupt confirms dispatch only, so the command is read until it settles (AGENT-13). */
  protected async devServer(terminal: Terminal): Promise<void> {
    const receipt = this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm run dev", "dev-server")));
    await this.interrupt(terminal);
    await this.settle(receipt);
  }

  /** Files, one operation each: a small store fills, and is reconciled deliberately (AGENT-14). */
  protected async writeFiles(workspaceId: string): Promise<void> {
    for (let i = 1; i <= (this.o.files ?? 3); i++) {
      const args = {
        workspaceId,
        path: `note-${i}.md`,
        expectedDiskRevision: null,
        content: { text: `Note ${i}\n` },
        retryEpoch: this.epoch(workspaceId),
        requestKey: this.key("write-note"),
      };
      await this.settle(this.admitted(await this.submit("lomi_file_write", args)));
    }
  }

  // ---- the primitives ----

  /** One tools/call, read as a Lomi envelope; a JSON-RPC error or a dropped connection is a lost reply. */
  protected async call(name: string, args: Record<string, unknown>): Promise<Reply> {
    let result: Awaited<ReturnType<Client["callTool"]>>;
    try {
      result = await this.client.callTool({ name, arguments: args });
    } catch (error) {
      if (error instanceof McpError) return { kind: "lost", reason: error.message };
      throw error;
    }
    const envelope = result.structuredContent as { status?: string; data?: Record<string, any>; code?: string; message?: string } | undefined;
    if (envelope?.status === "ok" && envelope.data) return { kind: "ok", data: envelope.data };
    if (envelope?.status === "error" && envelope.code) return { kind: "error", code: envelope.code, message: envelope.message ?? "" };
    throw new AgentGaveUp(`${name} answered no Lomi envelope`);
  }

  /** An observation's data: a lost reply is simply asked again (an observation changes nothing). */
  protected async observe(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
    for (let i = 0; i < this.patience; i++) {
      const reply = await this.call(name, args);
      if (reply.kind === "ok") return reply.data;
      if (reply.kind === "error") throw new AgentGaveUp(`${name} was refused ${reply.code}: ${reply.message}`);
    }
    throw new AgentGaveUp(`${name} never answered`);
  }

  /**
   * Sends an operation and answers its admission, or the refusal for the caller to decide on: a lost
   * reply is recovered (AGENT-08), a refused epoch renewed by connecting again (AGENT-12), a full store
   * reconciled (AGENT-14), each before the same request goes again.
   */
  protected async submit(
    tool: string,
    request: Record<string, unknown>,
  ): Promise<{ kind: "admitted"; receipt: Receipt } | { kind: "refused"; code: string; message: string }> {
    let args = request;
    for (let i = 0; i < this.patience; i++) {
      let reply = await this.call(tool, args);
      if (reply.kind === "lost") reply = await this.recoverLost(tool, args);
      if (reply.kind === "ok") return { kind: "admitted", receipt: reply.data.operation };
      if (reply.kind === "lost") continue;
      if (reply.code === "RETRY_EPOCH_INVALID") args = { ...args, retryEpoch: await this.renewEpoch(String(args.workspaceId)) };
      else if (reply.code === "RESOURCE_EXHAUSTED") await this.onStoreFull(String(args.workspaceId));
      else return { kind: "refused", code: reply.code, message: reply.message };
    }
    throw new AgentGaveUp(`${tool} was never admitted`);
  }

  /** An admission, or the session stops on a refusal it did not expect. */
  protected admitted(outcome: Awaited<ReturnType<ReferenceAgent["submit"]>>): Receipt {
    if (outcome.kind === "refused") throw new AgentGaveUp(`refused ${outcome.code}: ${outcome.message}`);
    return outcome.receipt;
  }

  /**
   * After a lost reply: the entire original request again, or, where the connection has several
   * projects, a key lookup naming the anchor projectId (AGENT-08, AGENT-09). Never a new key (AGENT-11).
   */
  protected async recoverLost(tool: string, args: Record<string, unknown>): Promise<Reply> {
    const connection = this.connections.get(String(args.workspaceId));
    for (let i = 0; i < this.patience; i++) {
      if ((connection?.projects.length ?? 0) > 1) {
        const found = await this.call("lomi_operation_lookup", { retryEpoch: args.retryEpoch, requestKey: args.requestKey, tool, projectId: args.projectId });
        if (found.kind === "ok" || found.kind === "lost") {
          if (found.kind === "ok") return found;
          continue;
        }
        // Not found: nothing was admitted under the key, so the request is sent again as it was.
        if (found.code !== "NOT_FOUND") return found;
      }
      const reply = await this.call(tool, args);
      if (reply.kind !== "lost") return reply;
    }
    throw new AgentGaveUp(`${tool}'s outcome could not be retrieved`);
  }

  /**
   * Reads the operation until it settles (AGENT-04); one still waiting for a user who never answers is
   * withdrawn (cancelled) and read until that settles. After outcome_unknown, inspects the actual resource (AGENT-07).
   */
  protected async settle(receipt: Receipt): Promise<Receipt> {
    let current = await this.readUntilSettled(receipt);
    if (current.state === "awaiting_user")
      current = await this.readUntilSettled((await this.observe("lomi_operation_cancel", { operationId: current.operationId })).operation);
    if (!SETTLED.has(current.state)) throw new AgentGaveUp(`${current.operationId} did not settle`);
    if (current.state === "outcome_unknown") await this.inspect(current);
    else this.done.push(current.operationId);
    return current;
  }

  private async readUntilSettled(receipt: Receipt): Promise<Receipt> {
    let current = receipt;
    for (let i = 0; i < this.patience && !SETTLED.has(current.state); i++) {
      await this.wait();
      current = (await this.observe("lomi_operation_get", { operationId: current.operationId })).operation;
    }
    return current;
  }

  /** outcome_unknown: Lomi cannot establish the effect, so the agent looks at the resource itself (AGENT-07). */
  protected async inspect(receipt: Receipt): Promise<void> {
    const inspect = INSPECT[receipt.tool];
    if (!inspect) throw new AgentGaveUp(`no way to inspect what ${receipt.tool} acts on`);
    const [tool, args] = inspect(receipt, this.terminal);
    await this.call(tool, args);
  }

  /** The events feed until the operation's settlement shows, continuing with the cursor even after an empty page (AGENT-06). */
  protected async followEvents(workspaceId: string, operationId: string): Promise<void> {
    for (let i = 0; i < this.patience; i++) {
      const cursor = this.cursors.get(workspaceId);
      const page = await this.observe("lomi_events_read", { workspaceId, ...(cursor === undefined ? {} : { cursor }) });
      this.cursors.set(workspaceId, page.nextCursor);
      if ((page.events as Array<{ operationId: string; state: string }>).some((e) => e.operationId === operationId && SETTLED.has(e.state))) return;
      if (!page.hasMore) await this.wait();
    }
    throw new AgentGaveUp(`${operationId} never settled on the events feed`);
  }

  /** Ctrl+C on the terminal, in order under its lease; a lease a restart or takeover ended is taken again, its sequence from 1. */
  protected async interrupt(terminal: Terminal): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await this.call("lomi_terminal_interrupt", {
        workspaceId: terminal.workspaceId,
        terminalSessionId: terminal.terminalSessionId,
        leaseId: terminal.leaseId,
        inputSequence: String(terminal.sequence + 1),
      });
      if (reply.kind === "ok") {
        terminal.sequence++;
        return;
      }
      if (reply.kind === "error" && reply.code !== "LEASE_EXPIRED") throw new AgentGaveUp(`the interrupt was refused ${reply.code}: ${reply.message}`);
      if (reply.kind === "error") {
        const lease = await this.observe("lomi_lease_acquire", {
          workspaceId: terminal.workspaceId,
          runtime: { kind: "terminal", terminalSessionId: terminal.terminalSessionId },
        });
        terminal.leaseId = lease.leaseId;
        terminal.sequence = Number(lease.nextInputSequence) - 1;
      }
    }
    throw new AgentGaveUp("the interrupt was never dispatched");
  }

  /** A full store: deliberate maintenance the user approves in Lomi, forgetting what the agent is done with; never a reconnect (AGENT-14). */
  protected async onStoreFull(_workspaceId: string): Promise<void> {
    await this.observe("lomi_store_status", {});
    const forgetOperationIds = this.done.splice(0, 100);
    for (let i = 0; i < this.patience; i++) {
      const reconciled = await this.observe("lomi_store_reconcile", { forgetOperationIds });
      if (reconciled.status === "completed") return;
      await this.wait();
    }
    throw new AgentGaveUp("the store's reconciliation was never approved");
  }

  /** A refused epoch grants nothing new: connect again for a fresh one (AGENT-12). */
  protected async renewEpoch(workspaceId: string): Promise<string> {
    return (await this.connect(workspaceId)).retryEpoch;
  }

  /** The domainRevision for a layout mutation: the one last shown, unless the agent changed the layout since; then read again (AGENT-05). */
  protected async layoutRevision(workspaceId: string): Promise<string> {
    const connection = this.connections.get(workspaceId)!;
    if (!connection.revisionFresh) {
      const { domainRevision } = await this.observe("lomi_panel_list", { workspaceId });
      connection.revision = domainRevision;
      connection.revisionFresh = true;
    }
    return connection.revision;
  }

  protected layoutChanged(workspaceId: string): void {
    this.connections.get(workspaceId)!.revisionFresh = false;
  }

  // ---- small helpers ----

  protected command(terminal: Terminal, command: string, key: string): Record<string, unknown> {
    return {
      workspaceId: terminal.workspaceId,
      terminalSessionId: terminal.terminalSessionId,
      command,
      retryEpoch: this.epoch(terminal.workspaceId),
      requestKey: this.key(key),
    };
  }

  protected networkChange(workspaceId: string, settingsRevision: string, key = this.key("allow-network")): Record<string, unknown> {
    return {
      workspaceId,
      section: "permissions",
      values: { allowNetwork: true },
      expectedSettingsRevision: settingsRevision,
      retryEpoch: this.epoch(workspaceId),
      requestKey: key,
    };
  }

  protected epoch(workspaceId: string): string {
    const connection = this.connections.get(workspaceId);
    if (!connection) throw new AgentGaveUp(`not connected to ${workspaceId}`);
    return connection.retryEpoch;
  }

  /** A fresh request key: every intended operation gets its own (AGENT-10). */
  protected key(purpose: string): string {
    return `${purpose}-${++this.keys}`;
  }

  protected get patience(): number {
    return this.o.patience ?? 400;
  }

  protected wait(): Promise<void> {
    const ms = this.o.pollMs ?? 25;
    return this.o.pause ? this.o.pause(ms) : new Promise((resolve) => setTimeout(resolve, ms));
  }
}

/** `node --import tsx examples/agents/reference-agent.ts [--name NAME] -- CMD ARGS…`: the session against the stdio server CMD. */
async function main(): Promise<void> {
  const split = process.argv.indexOf("--");
  const [command, ...args] = split === -1 ? [] : process.argv.slice(split + 1);
  if (command === undefined)
    throw new AgentGaveUp("usage: reference-agent.ts -- CMD [ARGS…] (a stdio MCP server: a broker, or lomi-conformance record in front of one)");
  const client = new Client({ name: "lomi-reference-agent", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
  try {
    await new ReferenceAgent(client).run();
  } finally {
    await client.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
