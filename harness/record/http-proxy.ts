import http from "node:http";
import { buffer as bodyOf } from "node:stream/consumers";
import https from "node:https";
import { listeningPort } from "../adapters/free-port.js";
import { holdIdleConnections } from "../../protocol/idle-connections.js";
import { refusalOf } from "../../reference-broker/http-guard.js";
import { jsonRpcError, MCP_PATH } from "../../reference-broker/http-endpoint.js";
import { sseMessages } from "./lines.js";
import { startRecording, type RecordingOptions } from "./recording.js";
import type { ConnectionTap } from "./tap.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

export interface HttpRecordOptions extends RecordingOptions {
  /** Where the recorder listens, on 127.0.0.1 (0 picks a free port). */
  port: number;
  /** The broker's Streamable HTTP endpoint. */
  to: URL;
}

export interface HttpRecorder {
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers: each side of the proxy has its own connection. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"];

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = { ...headers };
  for (const h of HOP_BY_HOP) delete kept[h];
  return kept;
}

const jsonOf = (bytes: Buffer): unknown => {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
};

/**
 * `record --listen PORT --to URL`: a reverse proxy on 127.0.0.1 in front of a broker's Streamable
 * HTTP endpoint, one history for all its sessions, each session its own connection. It refuses what
 * the reference broker's endpoint refuses before MCP (a Host or Origin that is not this loopback
 * endpoint), passes the rest on as it came — the bearer token included, which the broker checks and
 * the history never sees — and passes every response back as it comes, JSON or event stream.
 */
export async function recordHttp(o: HttpRecordOptions): Promise<HttpRecorder> {
  const run = `http-${o.history.run}`;
  const { recorder, live } = startRecording(o, run);
  const sessions = new Map<string, ConnectionTap>();
  let connections = 0;
  let port = o.port;
  const client = o.to.protocol === "https:" ? https : http;
  const agent = new client.Agent({ keepAlive: true });

  const server = http.createServer(async (req, res) => {
    const refusal = refusalOf(req, { host: "127.0.0.1", port });
    if (refusal) return jsonRpcError(res, refusal.status, refusal.message);
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== MCP_PATH) return jsonRpcError(res, 404, `The MCP endpoint is ${MCP_PATH}.`);
    const body = req.method === "POST" ? await bodyOf(req) : undefined;
    const message = body && jsonOf(body);
    const sessionId = typeof req.headers["mcp-session-id"] === "string" ? req.headers["mcp-session-id"] : undefined;
    let tap = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!tap) {
      tap = recorder.connection(`${run}.${++connections}`);
      // A session begun before the recorder started is still one connection from here on.
      if (sessionId !== undefined) sessions.set(sessionId, tap);
    }
    const connection = tap;
    connection.fromClient(message);

    const headers = withoutHopByHop(req.headers);
    headers.host = o.to.host;
    // The Origin passed the check as this endpoint's own: the broker sees its own, as a direct client's.
    if (headers.origin !== undefined) headers.origin = o.to.origin;
    const upstream = client.request(o.to, { method: req.method, headers, agent }, (answer) => {
      const session = answer.headers["mcp-session-id"];
      if (typeof session === "string" && !sessions.has(session)) sessions.set(session, connection);
      res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
      answer.pipe(res);
      const type = String(answer.headers["content-type"] ?? "");
      if (type.includes("text/event-stream"))
        answer.on(
          "data",
          sseMessages((m) => connection.fromServer(m)),
        );
      else {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.once("end", () => type.includes("json") && connection.fromServer(jsonOf(Buffer.concat(chunks))));
      }
      answer.once("end", () => {
        connection.unanswered(message, `no reply to the call in the broker's answer (HTTP ${answer.statusCode})`);
        if (req.method === "DELETE" && sessionId !== undefined) {
          connection.end("the client ended the session");
          sessions.delete(sessionId);
        }
      });
    });
    upstream.once("error", (error) => {
      connection.unanswered(message, `the broker at ${o.to.href} did not answer (${systemCodeOf(error) ?? messageOf(error)})`);
      if (!res.headersSent) jsonRpcError(res, 502, `Bad Gateway: the broker at ${o.to.href} did not answer.`);
      else res.destroy();
    });
    // The client gave up (or ended its event stream): so does the request to the broker.
    res.once("close", () => {
      if (res.writableFinished) return;
      connection.unanswered(message, "the client closed the request before its reply");
      upstream.destroy();
    });
    upstream.end(body);
  });
  holdIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, "127.0.0.1", resolve);
  });
  port = listeningPort(server);
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    close: async () => {
      for (const tap of new Set(sessions.values())) tap.end("the recorder stopped");
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      o.history.close();
      await live?.close();
    },
  };
}
