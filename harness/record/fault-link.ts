import { isSettled } from "../../protocol/states.js";
import { messageOf } from "../../protocol/errors.js";
import { harnessFault } from "../harness-error.js";
import { looseEnvelope, operationNamed } from "../history/replies.js";
import type { SimControl } from "../lomi/sim-control.js";
import type { FaultChoice, FaultPlan } from "./fault-plan.js";
import type { ConnectionTap, TrafficRecorder } from "./tap.js";

type Message = Record<string, unknown>;

const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);
const idKey = (id: unknown) => JSON.stringify(id);
/** The calls that read an operation's progress. */
const READS = new Set(["lomi_operation_get", "lomi_operation_lookup", "lomi_events_read"]);

/** How many times the agent reads a held operation (or its workspace's events feed) before the recorder lets Lomi finish it. */
export const HOLD_READS = 2;

/** JSON-RPC's code for a request that got no answer in time: what a client sees of a reply that never came. */
const LOST_CODE = -32001;
/** MCP's code for a connection that closed under a request. */
const CLOSED_CODE = -32000;

/** The broker behind the link: where messages go, and how it restarts on the same store. */
export interface LinkedBroker {
  send(message: unknown): void;
  /** Kills the broker (no shutdown code runs) and starts it again on the same store; its messages keep coming to fromServer. */
  restart(): Promise<void>;
}

export interface FaultLinkOptions {
  plan: FaultPlan;
  recorder: TrafficRecorder;
  tap: ConnectionTap;
  broker: LinkedBroker;
  toClient(message: unknown): void;
  /** The simulated Lomi's control API: a hold is armed there, and released there. */
  lomi?: SimControl;
  /** Called with each client message before it goes on (in order; the next waits for it). */
  beforeForward?(message: unknown): Promise<void> | void;
  /** A fault the recorder could not inject (Lomi's control API did not answer): said, never thrown at the agent. */
  warn(line: string): void;
}

interface Forwarded {
  tool: string | undefined;
  choice: FaultChoice | undefined;
}

/**
 * The recorder between one agent and its broker with `--faults`: every message passes through in
 * order, and the calls the plan picks get their fault. A lost reply: the broker answers, and the agent
 * gets a JSON-RPC error in its place (as a timed-out request reads). A restart: the same, then the
 * broker is killed and started again on its store; the recorder initializes the new instance as the
 * client did the first, so the agent's connection goes on against a new broker instance (whose old
 * retry epochs grant nothing new). A hold: the call's dispatch is held in the simulated Lomi until the
 * agent has read the operation unsettled HOLD_READS times, then it completes. Every fault is written
 * to the history as it is injected (detail.injectedBy), and the tap records what the agent was told.
 */
export class FaultLink {
  private chain: Promise<void> = Promise.resolve();
  private initialize: Message | undefined;
  private initialized: Message | undefined;
  private readonly forwarded = new Map<string, Forwarded>();
  /** Calls whose admission names the operation to hold, by request id; then operations held, with the reads seen. */
  private readonly holding = new Map<string, FaultChoice>();
  private readonly held = new Map<string, { reads: number; item: string; workspaceId: unknown }>();
  /** Requests that read operations (a get, a lookup, an events page), by request id, with the workspace of an events read. */
  private readonly reads = new Map<string, { tool: string; workspaceId: unknown }>();
  private restarts = 0;
  private reinitialized: ((message: Message) => void) | undefined;
  private reinitId: string | undefined;
  /** A restart under way: nothing goes to the broker until the new instance is initialized. */
  private restarting: Promise<void> | undefined;

  constructor(private readonly o: FaultLinkOptions) {}

  /** A message from the agent: passed on in order, after any restart or release under way. */
  fromClient(message: unknown): void {
    this.enqueue(() => this.clientMessage(message));
  }

  /** A message from the broker. */
  fromServer(message: unknown): void {
    if (!isObject(message) || message.method !== undefined || message.id === undefined) return this.pass(message);
    if (this.reinitId !== undefined && message.id === this.reinitId) return this.reinitialized?.(message);
    const key = idKey(message.id);
    const forwarded = this.forwarded.get(key);
    this.forwarded.delete(key);
    const choice = forwarded?.choice;
    if (choice?.kind === "lose-reply" || choice?.kind === "restart") return this.lose(message, forwarded!, choice);
    if (choice?.kind === "hold") this.learnHeld(message, choice);
    this.pass(message);
    this.countRead(key, message);
  }

  private enqueue(step: () => Promise<void> | void): void {
    this.chain = this.chain.then(step).catch((error: unknown) => this.o.warn(`lomi-conformance record: a fault could not be injected: ${messageOf(error)}`));
  }

  private pass(message: unknown): void {
    this.o.tap.fromServer(message);
    this.o.toClient(message);
  }

  private async clientMessage(message: unknown): Promise<void> {
    await this.o.beforeForward?.(message);
    if (isObject(message)) {
      if (message.method === "initialize") this.initialize = message;
      if (message.method === "notifications/initialized") this.initialized = message;
      const params = isObject(message.params) ? message.params : {};
      if (message.method === "tools/call" && message.id !== undefined && typeof params.name === "string") {
        const key = idKey(message.id);
        const choice = this.o.plan.next(params.name);
        if (choice?.kind === "hold") await this.arm(params.name, choice, key);
        this.forwarded.set(key, { tool: params.name, choice });
        if (READS.has(params.name))
          this.reads.set(key, { tool: params.name, workspaceId: isObject(params.arguments) ? params.arguments.workspaceId : undefined });
      } else if (message.id !== undefined && message.method !== undefined) this.forwarded.set(idKey(message.id), { tool: undefined, choice: undefined });
    }
    this.o.tap.fromClient(message);
    await this.restarting;
    this.o.broker.send(message);
  }

  private fault(kind: "lose-reply" | "broker-crash" | "hold" | "release", choice: FaultChoice, detail: Record<string, unknown>): void {
    this.o.recorder.write({
      type: "fault",
      kind,
      at: this.o.recorder.now(),
      detail: { injectedBy: "record --faults", item: choice.item, seed: this.o.plan.seed, connection: this.o.tap.label, ...detail },
    });
  }

  private async arm(tool: string, choice: FaultChoice, key: string): Promise<void> {
    if (!this.o.lomi) throw harnessFault(`${choice.item} needs a simulated Lomi's control API (--lomi-control URL)`);
    await this.o.lomi.armFault("hold", tool);
    this.holding.set(key, choice);
    this.fault("hold", choice, { tool });
  }

  /** A held call's admission names the operation now held in Lomi. */
  private learnHeld(message: Message, choice: FaultChoice): void {
    const op = isObject(message.result) ? operationNamed(looseEnvelope(message.result.structuredContent)) : undefined;
    if (op && !isSettled(op.state ?? "")) this.held.set(op.operationId, { reads: 0, item: choice.item, workspaceId: op.workspaceId });
  }

  /** A read of a held operation (by ID or key, or its workspace's events feed); after HOLD_READS of them Lomi finishes it. */
  private countRead(key: string, message: Message): void {
    const read = this.reads.get(key);
    this.reads.delete(key);
    if (!read || this.held.size === 0) return;
    const named = isObject(message.result) ? operationNamed(looseEnvelope(message.result.structuredContent)) : undefined;
    for (const [operationId, held] of this.held) {
      if (read.tool === "lomi_events_read" ? read.workspaceId !== held.workspaceId : named?.operationId !== operationId) continue;
      const settled = named?.operationId === operationId && isSettled(named.state ?? "");
      if (!settled && ++held.reads < HOLD_READS) continue;
      this.held.delete(operationId);
      // Settled meanwhile (cancelled, or outcome_unknown after a crash): nothing is left to release.
      if (settled) continue;
      // Before the agent's next message goes on: its next read sees Lomi's release.
      this.enqueue(async () => {
        await this.o.lomi!.release(operationId, "complete");
        this.fault("release", { kind: "hold", item: held.item }, { operationId, outcome: "complete", afterReads: HOLD_READS });
      });
    }
  }

  /** The broker's reply never reaches the agent: it gets an error in its place, and, for a restart, the broker starts again. */
  private lose(message: Message, forwarded: Forwarded, choice: FaultChoice): void {
    const restart = choice.kind === "restart";
    this.fault(restart ? "broker-crash" : "lose-reply", choice, {
      tool: forwarded.tool,
      ...(isObject(message.result) ? { reply: message.result.structuredContent } : {}),
    });
    this.pass({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: LOST_CODE, message: `Request timed out: the reply was lost (lomi-conformance record --faults ${choice.item})` },
    });
    if (!restart) return;
    this.restarting = this.restart()
      .catch((error: unknown) => this.o.warn(`lomi-conformance record: the broker could not be restarted: ${messageOf(error)}`))
      .finally(() => (this.restarting = undefined));
  }

  private async restart(): Promise<void> {
    // The old instance dies with every request it had: each is answered as a closed connection answers it.
    for (const [key] of this.forwarded)
      this.pass({ jsonrpc: "2.0", id: JSON.parse(key) as unknown, error: { code: CLOSED_CODE, message: "Connection closed: the broker restarted" } });
    this.forwarded.clear();
    await this.o.broker.restart();
    if (!this.initialize) return;
    const id = `lomi-record-restart-${++this.restarts}`;
    const answered = new Promise<Message>((resolve) => (this.reinitialized = resolve));
    this.reinitId = id;
    this.o.broker.send({ ...this.initialize, id });
    const reply = await answered;
    this.reinitId = undefined;
    if (reply.error !== undefined) throw harnessFault(`the restarted broker refused initialize: ${JSON.stringify(reply.error)}`);
    if (this.initialized) this.o.broker.send(this.initialized);
  }

  /** Resolves once every message received so far has gone on (a restart or release included). */
  async settled(): Promise<void> {
    await this.chain;
    await this.restarting;
  }
}
