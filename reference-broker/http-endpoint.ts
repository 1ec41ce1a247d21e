import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { holdIdleConnections } from "../protocol/idle-connections.js";
import type { Timers } from "../protocol/ports.js";
import type { Broker } from "./broker.js";
import { isLoopback, refusalOf } from "./http-guard.js";
import { connectMcpServer } from "./mcp-server.js";
import { MAX_LINE_BYTES, PARSE_ERROR } from "./stdio-transport.js";

export const MCP_PATH = "/mcp";
export const DEFAULT_IDLE_SESSION_MS = 30 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 64;

export interface HttpOptions {
  port: number;
  /** Bind address (default 127.0.0.1); anything but loopback needs `token`. */
  host?: string;
  token?: string;
  /** A session unused this long is closed (default 30 minutes). */
  idleSessionMs?: number;
  /** At most this many open sessions; a new one beyond them is refused (default 64). */
  maxSessions?: number;
  /** Idleness is measured, and idle sessions swept, on the broker host's timers (an idle session is the broker's matter, not Lomi's time). */
  timers: Timers;
}

export interface HttpEndpoint {
  url: string;
  /** Open MCP sessions. */
  sessionCount(): number;
  /** Closes the sessions idle for too long; the endpoint also does it on a timer. */
  expireIdle(): Promise<number>;
  close(): Promise<void>;
}

/** A JSON-RPC error as an HTTP answer, for what is refused before MCP (the recorder's proxy answers the same way). */
export function jsonRpcError(res: http.ServerResponse, status: number, message: string, code = -32000, headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The request body, at most MAX_LINE_BYTES; undefined when it is longer. */
async function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_LINE_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/**
 * Streamable HTTP at /mcp: one MCP session (one connection, one Lomi session) per client. Bound to
 * 127.0.0.1 unless told otherwise, with Host, Origin and token checks before any MCP processing,
 * session IDs from a cryptographic source (never the replay seed), and a bounded, expiring session table.
 */
export async function serveHttp(broker: Broker, options: HttpOptions): Promise<HttpEndpoint> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && !options.token) throw new Error(`binding ${host} needs a bearer token: anyone who can reach it could drive Lomi`);
  const idleMs = options.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessions = new Map<string, Session>();
  let port = options.port;

  const expireIdle = async () => {
    const stale = [...sessions.entries()].filter(([, s]) => options.timers.now() - s.lastUsed >= idleMs);
    for (const [id, s] of stale) {
      sessions.delete(id);
      await s.transport.close();
    }
    return stale.length;
  };

  const server = http.createServer(async (req, res) => {
    const refusal = refusalOf(req, { host, port, token: options.token });
    if (refusal) return jsonRpcError(res, refusal.status, refusal.message, -32000, refusal.status === 401 ? { "www-authenticate": "Bearer" } : {});
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== MCP_PATH) return jsonRpcError(res, 404, `The MCP endpoint is ${MCP_PATH}.`);
    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    let body: unknown;
    if (req.method === "POST") {
      const text = await readBody(req);
      // The rest of the body is never read: the connection closes, or the next request on it would wait behind those bytes.
      if (text === undefined)
        return jsonRpcError(res, 413, `Payload Too Large: a request body is at most ${MAX_LINE_BYTES} bytes.`, -32600, { connection: "close" });
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, "Parse error: the body is not JSON", PARSE_ERROR);
      }
    }
    let session = sessionId ? sessions.get(sessionId) : undefined;
    if (!session) {
      if (sessionId) return jsonRpcError(res, 404, "Unknown MCP session; initialize a new one.");
      if (sessions.size >= maxSessions) await expireIdle();
      if (sessions.size >= maxSessions)
        return jsonRpcError(res, 503, `Too many MCP sessions (${maxSessions}); end one (HTTP DELETE) or wait until idle ones expire.`);
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void sessions.set(id, { transport: created, lastUsed: options.timers.now() }),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await connectMcpServer(broker, created);
      session = { transport: created, lastUsed: options.timers.now() };
    }
    session.lastUsed = options.timers.now();
    await session.transport.handleRequest(req, res, body);
  });
  holdIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, resolve);
  });
  port = (server.address() as AddressInfo).port;
  const sweepMs = Math.max(1000, Math.floor(idleMs / 4));
  // Each sweep sets the next as it starts, as setInterval would: a clock moved past several sweeps makes each.
  let stopSweeping: () => void;
  const sweepLater = () => {
    stopSweeping = options.timers.after(sweepMs, () => {
      sweepLater();
      return expireIdle();
    });
  };
  sweepLater();
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${MCP_PATH}`,
    sessionCount: () => sessions.size,
    expireIdle,
    close: async () => {
      stopSweeping();
      for (const s of sessions.values()) await s.transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
