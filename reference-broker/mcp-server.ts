import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { sharedSchemaValidator } from "../protocol/schema-validator.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Broker } from "./broker.js";
import { BrokerCrashed } from "./fault-hooks.js";
import { RawCallGuard } from "./raw-call-guard.js";
import { toolsList } from "./tools-list.js";

export const BROKER_NAME = "lomi-reference-broker";
export const BROKER_VERSION = "0.1.0";

/**
 * An MCP server for one connection, connected to its transport. It uses the SDK's Server rather than
 * McpServer because McpServer answers bad input with its own text error before a handler runs; every
 * Lomi reply, a rejected input included, must carry the typed envelope. The session judges the
 * arguments as the client sent them (RawCallGuard), not as the SDK rebuilt them.
 */
export async function connectMcpServer(broker: Broker, transport: Transport): Promise<Server> {
  const server = new Server({ name: BROKER_NAME, version: BROKER_VERSION }, { capabilities: { tools: {} }, jsonSchemaValidator: sharedSchemaValidator() });
  const session = broker.newSession(() => server.getClientVersion()?.name ?? "unnamed-client");
  const guard = new RawCallGuard(transport);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return await session.call(request.params.name, guard.takeArguments(extra.requestId));
    } catch (error) {
      // A broker that crashed in this process (a fault hook, in-process) answers nothing: its connection
      // ends with the call unanswered, as a killed process's would, instead of a JSON-RPC error.
      if (error instanceof BrokerCrashed) await server.close();
      throw error;
    }
  });
  await server.connect(guard);
  return server;
}
