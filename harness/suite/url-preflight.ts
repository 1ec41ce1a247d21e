import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { brokerRequestInit } from "../connection/broker-request.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { configError } from "../harness-error.js";
import { McpConnection } from "../connection/mcp-connection.js";
import { SimControl } from "../lomi/sim-control.js";
import { serveSimulatorOn } from "../lomi/simulator-fixture.js";

const PREFLIGHT_CLIENT = "lomi-conformance-preflight";

/**
 * Before a run against a broker at a URL: serve the simulator on the native port, and check that the
 * broker answers MCP there and calls that simulator's bridge when asked for workspaces. Either
 * failing is a configuration error whose message says what to start, and how.
 */
export async function preflightUrl(url: URL, nativePort: number, timeoutMs: number): Promise<{ name: string; version: string } | undefined> {
  const server = await serveSimulatorOn(nativePort, readWorldFile(), 0);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: brokerRequestInit() });
  let connection: McpConnection | undefined;
  try {
    try {
      connection = await McpConnection.open(transport, PREFLIGHT_CLIENT, timeoutMs);
    } catch (error) {
      throw configError(`no MCP server answers at ${url.href} (${(error as Error).message}). Start your broker first, with LOMI_NATIVE_URL=${server.url}`);
    }
    await connection.call("lomi_workspace_list", {}).catch(() => undefined); // any answer will do: what matters is whether Lomi was asked
    const pairings = await new SimControl(server.url).pairings();
    if (!pairings.some((p) => p.clientName === PREFLIGHT_CLIENT)) {
      throw configError(
        `the broker at ${url.href} answers MCP but did not ask the simulated Lomi at ${server.url} about its pairing. Start it with LOMI_NATIVE_URL=${server.url}`,
      );
    }
    return connection.serverInfo();
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await connection?.close();
    await server.close();
  }
}
