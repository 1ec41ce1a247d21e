import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CATALOGUE, publishedTool, type PublishedTool } from "../protocol/catalogue.js";
import type { Broker } from "./broker.js";

export const BROKER_NAME = "lomi-reference-broker";
export const BROKER_VERSION = "0.1.0";

// Built at the first tools/list, not at start: converting every schema costs a quarter of a second,
// which a broker started for each scenario mostly never needs.
let tools: PublishedTool[] | undefined;
const publishedTools = () => (tools ??= CATALOGUE.map(publishedTool));

/**
 * An MCP server for one connection. It uses the SDK's Server rather than McpServer because
 * McpServer answers bad input with its own text error before a handler runs; every Lomi reply,
 * a rejected input included, must carry the typed envelope.
 */
export function createMcpServer(broker: Broker): Server {
  const server = new Server({ name: BROKER_NAME, version: BROKER_VERSION }, { capabilities: { tools: {} } });
  const session = broker.newSession(() => server.getClientVersion()?.name ?? "unnamed-client");
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: publishedTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request) => session.call(request.params.name, request.params.arguments));
  return server;
}
