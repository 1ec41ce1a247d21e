import http from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Broker } from "./broker.js";
import { connectMcpServer } from "./mcp-server.js";

export const MCP_PATH = "/mcp";

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

function jsonRpcError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** Streamable HTTP on 127.0.0.1 at /mcp: one MCP session (one connection, one Lomi session) per client. */
export async function serveHttp(broker: Broker, port: number): Promise<HttpEndpoint> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== MCP_PATH) return jsonRpcError(res, 404, `The MCP endpoint is ${MCP_PATH}.`);
    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId) return jsonRpcError(res, 404, "Unknown MCP session; initialize a new one.");
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => broker.random.id("mcp-"),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      await connectMcpServer(broker, created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${MCP_PATH}`,
    close: async () => {
      for (const t of transports.values()) await t.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
