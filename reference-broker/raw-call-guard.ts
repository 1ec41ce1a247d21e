import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";

/** The JSON-RPC error a request gets before initialize, as the SDK's Streamable HTTP transport answers it. */
export const NOT_INITIALIZED = { code: -32000, message: "Bad Request: Server not initialized" } as const;

const ALLOWED_BEFORE_INITIALIZE = new Set(["initialize", "ping"]);

interface RawRequest {
  jsonrpc: "2.0";
  id?: RequestId;
  method?: string;
  params?: Record<string, unknown>;
}

/**
 * Sits between a transport and the SDK's Server. The SDK's request parsing rebuilds `arguments`,
 * which silently drops a `__proto__` key and refuses a non-object with -32603; the broker must judge
 * the arguments exactly as received, so this keeps them by request ID for the tools/call handler.
 * It also refuses requests before initialize on every transport, as Streamable HTTP already does.
 */
export class RawCallGuard implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  private readonly raw = new Map<RequestId, unknown>();
  private initialized = false;

  constructor(private readonly inner: Transport) {
    const previousClose = inner.onclose;
    inner.onclose = () => {
      previousClose?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.receive(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(...args: Parameters<Transport["send"]>): Promise<void> {
    const [message] = args;
    if ("id" in message && message.id !== undefined && !("method" in message)) this.raw.delete(message.id);
    return this.inner.send(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The arguments of a tools/call exactly as the client sent them (undefined when it sent none). */
  takeArguments(requestId: RequestId): unknown {
    const value = this.raw.get(requestId);
    this.raw.delete(requestId);
    return value;
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const request = message as RawRequest;
    if (typeof request.method !== "string" || request.id === undefined) return this.onmessage?.(message, extra);
    if (request.method === "initialize") this.initialized = true;
    else if (!this.initialized && !ALLOWED_BEFORE_INITIALIZE.has(request.method)) {
      void this.inner.send({ jsonrpc: "2.0", id: request.id, error: NOT_INITIALIZED });
      return;
    }
    if (request.method !== "tools/call" || typeof request.params?.name !== "string") return this.onmessage?.(message, extra);
    const args = request.params.arguments;
    this.raw.set(request.id, args);
    // Whatever the arguments are, the broker's own validation answers them; the SDK only sees an object.
    const forwarded = isPlainObject(args) || args === undefined ? message : { ...request, params: { ...request.params, arguments: {} } };
    this.onmessage?.(forwarded as JSONRPCMessage, extra);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
