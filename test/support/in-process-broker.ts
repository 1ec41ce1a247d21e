import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { EnvelopeToolResult } from "../../protocol/envelope.js";
import { systemClock } from "../../protocol/ports.js";
import { Broker } from "../../reference-broker/broker.js";
import { connectMcpServer } from "../../reference-broker/mcp-server.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess } from "../../simulator/in-process-route.js";
import type { WorldSeed } from "../../protocol/control-api.js";
import { readWorldFile } from "../../simulator/world-file.js";

/** The reference broker against an approving simulated Lomi in this process (the default world, or `world`), on a fresh store under `parent`. */
export async function startBroker(seed = 1, world: WorldSeed = readWorldFile(), parent = os.tmpdir()) {
  const host = new SimulatorHost({ ...world, autoApprovePairings: true }, seed);
  routeInProcess(host);
  const dir = mkdtempSync(path.join(parent, "lomi-test-"));
  const storePath = path.join(dir, "receipts.sqlite");
  const broker = await Broker.start({ nativeUrl: IN_PROCESS_ORIGIN, fetch: inProcessFetch, storePath, seed, hostClock: systemClock });
  return {
    sim: host.current,
    broker,
    storePath,
    cleanup: () => {
      broker.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The reference broker and an approving simulated Lomi in this process, with one MCP client. */
export async function inProcessBroker(seed = 1) {
  const { sim, broker, storePath, cleanup } = await startBroker(seed);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectMcpServer(broker, serverSide);
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    sim,
    client,
    broker,
    storePath,
    /** Calls a tool with arguments exactly as given (any JSON value, own "__proto__" keys included). */
    call: async (name: string, args: unknown) => (await client.callTool({ name, arguments: args as Record<string, unknown> })) as EnvelopeToolResult,
    close: async () => {
      await client.close();
      cleanup();
    },
  };
}

/** An object whose keys are all own properties, "__proto__" included, as JSON.parse makes them. */
export function ownObject(entries: Array<[string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}
