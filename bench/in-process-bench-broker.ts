// The reference broker in this process on a fresh store, with the simulated Lomi on its in-process routes, and a
// way to connect agents to it over MCP's in-memory transport: what the in-process figures measure.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { connectMcpServer } from "../reference-broker/mcp-server.js";
import { stopRouting } from "../simulator/in-process-route.js";
import { startBroker } from "../test/support/in-process-broker.js";
import { agentsOnTerminals, benchWorld, type BenchAgent } from "./bench-agent.js";

/** `parent`: where the store's directory goes (the disk under test by default). */
export async function inProcessBenchBroker(seed: number, parent?: string) {
  const started = await startBroker(seed, benchWorld(), parent);
  const agents: BenchAgent[] = [];
  return {
    ...started,
    async agents(count: number): Promise<BenchAgent[]> {
      const more = await agentsOnTerminals(count, async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await connectMcpServer(started.broker, serverSide);
        return clientSide;
      });
      agents.push(...more);
      return more;
    },
    async close(): Promise<void> {
      for (const a of agents) await a.close();
      started.cleanup();
      stopRouting();
    },
  };
}
