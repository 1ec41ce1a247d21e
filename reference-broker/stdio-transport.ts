import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The longest line (one JSON-RPC message) the broker reads over stdio, as a Streamable HTTP body is bounded too. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/**
 * MCP over stdio, one JSON-RPC message per line. Unlike the SDK's transport, which drops a line it
 * cannot parse without a word, every malformed line is answered as JSON-RPC says (-32700 or -32600,
 * id null), and a line past MAX_LINE_BYTES is answered and skipped instead of closing the connection.
 */
export class LineStdioTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skippingLongLine = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onError);
    this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly onEnd = () => void this.close();
  private readonly onError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      this.take(rest.subarray(0, end), true);
      rest = rest.subarray(end + 1);
    }
    if (rest.length > 0) this.take(rest, false);
  };

  /** Adds a piece of the current line; `complete` when a newline ended it. */
  private take(piece: Buffer, complete: boolean): void {
    if (!this.skippingLongLine) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      if (this.pendingBytes > this.maxLineBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        this.skippingLongLine = true;
        this.refuse(INVALID_REQUEST, `Invalid Request: a message longer than ${this.maxLineBytes} bytes`);
      }
    }
    if (!complete) return;
    if (this.skippingLongLine) {
      this.skippingLongLine = false;
      return;
    }
    const line = Buffer.concat(this.pending).toString("utf8").replace(/\r$/, "");
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() !== "") this.receive(line);
  }

  private receive(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return this.refuse(PARSE_ERROR, "Parse error: the line is not JSON");
    }
    if (!JSONRPCMessageSchema.safeParse(json).success)
      return this.refuse(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
    // The message as received: the broker judges tool arguments exactly as the client sent them.
    this.onmessage?.(json as JSONRPCMessage);
  }

  private refuse(code: number, message: string): void {
    void this.send({ jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
