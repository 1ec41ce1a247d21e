import type { Clock } from "../../protocol/ports.js";
import { answeredReply, type CallRecord, type FaultRecord, type HistoryRecord, type ReplyRecord } from "../history/format.js";

/** Where records go as they are made; the recorder's sink appends each to the history file at once. */
export type RecordSink = (record: HistoryRecord) => void;

/** A period in which calls were in flight without a pause; its mark goes on its calls once two overlap. */
interface Busy {
  mark: string;
  calls: number;
}

interface Pending {
  tool: string;
  args: Record<string, unknown>;
  sentAt: string;
  busy: Busy;
}

type Message = Record<string, unknown>;

const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);
/** JSON-RPC ids are strings or numbers: one key for both. */
const idKey = (id: unknown) => JSON.stringify(id);
/** A JSON-RPC batch is an array of messages; anything else is one message. */
const messagesOf = (value: unknown): Message[] => (Array.isArray(value) ? value : [value]).filter(isObject);

/**
 * Every connection's traffic as `lomi-history/1` records, one sink for all. A call record is made
 * when its reply comes (or when it can no longer come), so records are in the order calls ended;
 * calls in flight together, on any connection, share a `concurrent` mark, as the format says.
 */
export class TrafficRecorder {
  private inFlight = 0;
  private busy: Busy | undefined;
  private busyCount = 0;

  constructor(
    private readonly sink: RecordSink,
    private readonly clock: Clock,
    /** Makes this recorder's marks differ from those of earlier recorders appending to the same history. */
    private readonly markPrefix: string,
  ) {}

  now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  connection(label: string): ConnectionTap {
    return new ConnectionTap(this, label);
  }

  write(record: HistoryRecord): void {
    this.sink(record);
  }

  /** Counts a call in flight and gives it the busy period it belongs to. */
  enter(): Busy {
    if (this.inFlight === 0 || !this.busy) this.busy = { mark: `${this.markPrefix}/overlap-${++this.busyCount}`, calls: 0 };
    this.inFlight++;
    this.busy.calls++;
    return this.busy;
  }

  leave(): void {
    this.inFlight--;
  }
}

/**
 * One MCP connection seen from between its client and its server: the agent's name from
 * `initialize`, each `tools/call` from its request to its reply (a result, a JSON-RPC error, a
 * cancellation, or the connection's end). Everything else passes unrecorded.
 */
export class ConnectionTap {
  /** The client's name from initialize: the pairing identity the oracles judge by. */
  agent = "unknown";
  /** The client's version from initialize, if it gave one: with its name, the agent the agent rules judge. */
  agentVersion: string | undefined;
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly recorder: TrafficRecorder,
    readonly label: string,
  ) {}

  /** A parsed JSON body or line the client sent (one message or a batch). */
  fromClient(value: unknown): void {
    for (const m of messagesOf(value)) {
      const params = isObject(m.params) ? m.params : {};
      if (m.method === "initialize" && isObject(params.clientInfo) && typeof params.clientInfo.name === "string" && params.clientInfo.name !== "") {
        this.agent = params.clientInfo.name;
        this.agentVersion = typeof params.clientInfo.version === "string" && params.clientInfo.version !== "" ? params.clientInfo.version : undefined;
      } else if (m.method === "tools/call" && m.id !== undefined && typeof params.name === "string") {
        this.pending.set(idKey(m.id), {
          tool: params.name,
          args: isObject(params.arguments) ? params.arguments : {},
          sentAt: this.recorder.now(),
          busy: this.recorder.enter(),
        });
      } else if (m.method === "notifications/cancelled" && params.requestId !== undefined) {
        // The client stops waiting: what it was told of this call is nothing, whatever comes later.
        this.settle(idKey(params.requestId), {
          status: "lost",
          reason: `the client cancelled the request${typeof params.reason === "string" ? ` (${params.reason})` : ""}`,
        });
      }
    }
  }

  /** A parsed JSON body, line or server-sent event the server sent. */
  fromServer(value: unknown): void {
    for (const m of messagesOf(value)) {
      if (m.id === undefined || m.method !== undefined) continue; // a request or notification of the server's own
      if (isObject(m.result)) this.settle(idKey(m.id), answeredReply(m.result));
      else if (isObject(m.error)) this.settle(idKey(m.id), { status: "lost", reason: `JSON-RPC error ${String(m.error.code)}: ${String(m.error.message)}` });
    }
  }

  /** The calls a client message carried that got no reply where it was due (a refused or failed HTTP request). */
  unanswered(value: unknown, reason: string): void {
    for (const m of messagesOf(value)) if (m.method === "tools/call" && m.id !== undefined) this.settle(idKey(m.id), { status: "lost", reason });
  }

  /** The connection is over: every call still in flight is lost, for `reason`. */
  end(reason: string): void {
    for (const key of [...this.pending.keys()]) this.settle(key, { status: "lost", reason });
  }

  /** The broker behind this connection died: calls in flight are lost, and the crash is recorded. */
  crashed(detail: FaultRecord["detail"]): void {
    this.end("the broker exited");
    this.recorder.write({ type: "fault", kind: "broker-crash", at: this.recorder.now(), detail: { connection: this.label, ...detail } });
  }

  private settle(key: string, reply: ReplyRecord): void {
    const call = this.pending.get(key);
    if (!call) return;
    this.pending.delete(key);
    this.recorder.leave();
    const record: CallRecord = {
      type: "call",
      agent: this.agent,
      ...(this.agentVersion !== undefined ? { agentVersion: this.agentVersion } : {}),
      connection: this.label,
      tool: call.tool,
      args: call.args,
      sentAt: call.sentAt,
      answeredAt: this.recorder.now(),
      reply,
    };
    if (call.busy.calls > 1) record.concurrent = call.busy.mark;
    this.recorder.write(record);
  }
}
