import http from "node:http";
import type { AddressInfo } from "node:net";
import { getResponse, type HttpHandler } from "msw";
import { holdIdleConnections } from "../protocol/idle-connections.js";
import { readAll } from "../protocol/read-all.js";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Serves msw handlers on a real node:http server bound to 127.0.0.1, for a broker in another process. */
export async function serveHandlers(handlers: HttpHandler[], port = 0): Promise<RunningServer> {
  const server = http.createServer(async (req, res) => {
    const body = await readAll(req);
    const { port: boundPort } = server.address() as AddressInfo;
    const method = req.method ?? "GET";
    const request = new Request(`http://127.0.0.1:${boundPort}${req.url ?? "/"}`, {
      method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])) as [string, string][],
      body: method === "GET" || method === "HEAD" ? undefined : body,
    });
    const response = await getResponse(handlers, request);
    if (!response) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: `No route for ${method} ${req.url}` } }));
      return;
    }
    if (response.type === "error") {
      // A network error on purpose (a lost reply): the client sees the connection drop.
      req.socket.destroy();
      return;
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  holdIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject); // a port in use is the caller's to report
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${boundPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
