import http from "node:http";
import { getResponse, type HttpHandler } from "msw";
import { LomiError } from "../protocol/errors.js";
import { holdIdleConnections } from "../protocol/idle-connections.js";
import { readAll } from "../protocol/read-all.js";
import { LOST_REPLY, type RouteTable } from "./routes.js";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** What the server sends for a request: a reply, a dropped connection (a lost reply, on purpose), or undefined for no route. */
type Answer = { status: number; headers: Record<string, string>; body: Buffer | string } | "drop" | undefined;

interface Incoming {
  method: string;
  /** The request's path and query, as the client sent it. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: ReturnType<typeof Buffer.concat>;
  /** The port the server is bound to. */
  port: number;
}

/** A node:http server bound to 127.0.0.1 answering each request with `answer`, for a broker in another process. */
async function serve(answer: (request: Incoming) => Promise<Answer>, port: number): Promise<RunningServer> {
  let boundPort = 0; // known once listening, before any request arrives
  const server = http.createServer(async (req, res) => {
    const body = await readAll(req);
    const method = req.method ?? "GET";
    const reply = await answer({ method, url: req.url ?? "/", headers: req.headers, body, port: boundPort });
    if (reply === undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: `No route for ${method} ${req.url}` } }));
      return;
    }
    // A network error on purpose (a lost reply): the client sees the connection drop.
    if (reply === "drop") return void req.socket.destroy();
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  });
  holdIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject); // a port in use is the caller's to report
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  // Listening on a host and port, never a pipe: a string or no address would be a bug here.
  if (address === null || typeof address === "string") throw new LomiError("INTERNAL", `the simulated Lomi's server has no TCP port (${String(address)})`);
  boundPort = address.port;
  return {
    url: `http://127.0.0.1:${boundPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Serves a simulated Lomi's route table directly: the route gets the body as text and its reply goes
 * out as JSON, with none of the Request, Response, streams, cookies and AbortSignal msw would make for
 * every request (over stdio, most of the harness's CPU was that).
 */
export function serveRoutes(table: RouteTable, port = 0): Promise<RunningServer> {
  return serve(async ({ method, url, body }) => {
    const reply = await table.answer(method, new URL(url, "http://127.0.0.1").pathname, async () => (method === "POST" ? body.toString("utf8") : undefined));
    if (reply === undefined || reply === LOST_REPLY) return reply && "drop";
    return { status: reply.status, headers: { "content-type": "application/json" }, body: JSON.stringify(reply.body) };
  }, port);
}

/** Serves msw handlers, for tests and benches of a client that msw's handlers describe. */
export function serveHandlers(handlers: HttpHandler[], port = 0): Promise<RunningServer> {
  return serve(async ({ method, url, headers, body, port: boundPort }) => {
    const request = new Request(`http://127.0.0.1:${boundPort}${url}`, {
      method,
      headers: Object.entries(headers).flatMap(([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]])),
      body: method === "GET" || method === "HEAD" ? undefined : body,
    });
    const response = await getResponse(handlers, request);
    if (!response) return undefined;
    if (response.type === "error") return "drop";
    return { status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) };
  }, port);
}
