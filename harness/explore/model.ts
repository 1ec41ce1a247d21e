import { AGENTS, type AgentName, type Envelope, type ExploreSystem } from "./system.js";
import { isObject, operationNamed } from "../history/replies.js";

// The model explore's commands keep of the system: what the agents were told (epochs, operations,
// terminals, leases), so each generated command can be made concrete against this run's identifiers.

export const WORKSPACE = "ws-alpha";

export interface ModelOperation {
  agent: AgentName;
  tool: string;
  args: Record<string, unknown>;
  operationId: string | undefined;
  state: string | undefined;
}

export interface ModelLease {
  agent: AgentName;
  leaseId: string;
  terminalSessionId: string;
  /** The text sent under each inputSequence, for exact repeats. */
  sent: string[];
}

export interface Model {
  /** The retry epoch each agent's live connection got from lomi_connect. */
  epochs: Map<AgentName, string>;
  /** Epochs that no longer admit (earlier connections, crashed instances), for probes. */
  staleEpochs: Array<{ agent: AgentName; retryEpoch: string }>;
  /** The workspace's domainRevision as last seen (it goes stale when the user changes the layout). */
  revision: string;
  terminals: Array<{ terminalSessionId: string; panelId: string }>;
  leases: ModelLease[];
  operations: ModelOperation[];
  /** Where each agent's events feed continues. */
  cursors: Map<AgentName, string>;
  /** Request keys are numbered per run. */
  counter: number;
}

export const initialModel = (): Model => ({
  epochs: new Map(),
  staleEpochs: [],
  revision: "0",
  terminals: [],
  leases: [],
  operations: [],
  cursors: new Map(),
  counter: 0,
});

/** Picks the n-th of a list that may have grown or shrunk since the command was generated. */
export const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);

/** Learns what a reply shows: an operation's state, a terminal it created, the domainRevision. */
export function observe(model: Model, envelope: Envelope | undefined): void {
  if (envelope?.status !== "ok") return;
  const data = envelope.data;
  if (typeof data.domainRevision === "string") model.revision = data.domainRevision;
  const op = operationNamed(envelope);
  if (!op) return;
  for (const m of model.operations) if (m.operationId === op.operationId) m.state = op.state;
  const result = isObject(op.result) ? op.result : undefined;
  if (op.tool === "lomi_terminal_create" && op.state === "succeeded" && result && typeof result.terminalSessionId === "string") {
    if (!model.terminals.some((t) => t.terminalSessionId === result.terminalSessionId)) {
      model.terminals.push({ terminalSessionId: result.terminalSessionId, panelId: String(result.panelId) });
      // The terminal comes with its creator's lease.
      const creator = model.operations.find((m) => m.operationId === op.operationId)?.agent;
      if (creator && typeof result.leaseId === "string")
        model.leases.push({ agent: creator, leaseId: result.leaseId, terminalSessionId: result.terminalSessionId, sent: [] });
    }
    if (typeof result.domainRevision === "string") model.revision = result.domainRevision;
  }
}

/** The agent's current retry epoch, connecting (and having the user approve the pairing) when it has none. */
export async function epochOf(model: Model, system: ExploreSystem, agent: AgentName): Promise<string | undefined> {
  const known = model.epochs.get(agent);
  if (known && system.connected(agent)) return known;
  if (known) model.staleEpochs.push({ agent, retryEpoch: known });
  model.epochs.delete(agent);
  let reply = await system.call(agent, "lomi_connect", { workspaceId: WORKSPACE });
  if (reply?.status === "error" && reply.code === "PAIRING_REQUIRED") {
    await system.control.decide(agent, "approve");
    reply = await system.call(agent, "lomi_connect", { workspaceId: WORKSPACE });
  }
  if (reply?.status !== "ok") return undefined;
  observe(model, reply);
  model.epochs.set(agent, String(reply.data.retryEpoch));
  return model.epochs.get(agent);
}

/** Sends an operation and remembers it under its agent, whether or not the reply came back. */
export async function submit(model: Model, system: ExploreSystem, agent: AgentName, tool: string, args: Record<string, unknown>): Promise<void> {
  const reply = await system.call(agent, tool, args);
  const op = operationNamed(reply);
  const known = op && model.operations.find((m) => m.operationId === op.operationId);
  if (!known && (op || reply === undefined)) model.operations.push({ agent, tool, args, operationId: op?.operationId, state: op?.state });
  observe(model, reply);
}

/** Every epoch the broker forgets at a crash or reconnect becomes stale. */
export function forgetEpochs(model: Model, agents: readonly AgentName[] = AGENTS): void {
  for (const agent of agents) {
    const epoch = model.epochs.get(agent);
    if (epoch) model.staleEpochs.push({ agent, retryEpoch: epoch });
    model.epochs.delete(agent);
  }
}
