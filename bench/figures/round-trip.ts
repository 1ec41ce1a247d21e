// lomi_operation_get's round trip beside an echo tool's: a server of the same SDK class the broker
// uses (Server, CallTool handler), on the same kind of transport (in-memory), answering the very
// reply lomi_operation_get gave. The ratio is the broker's own work per read: store, checks, reply.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { QUICK_COMMAND } from "../bench-agent.js";
import { inProcessBenchBroker } from "../in-process-bench-broker.js";
import { figure, type Figure } from "../report.js";
import { summarize } from "../summary.js";
import type { FigureContext } from "./figure-context.js";

const ECHO = "bench_echo";

/** An SDK client on an SDK server whose one tool answers `reply`, whatever it is asked. */
async function echoClient(reply: CallToolResult): Promise<Client> {
  const server = new Server({ name: "bench-echo", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, () => reply);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench-echo-client", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** Microseconds per call over `calls` sequential calls, after a warm-up long enough for V8 to have optimized both paths. */
async function microsPerCall(calls: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 500; i++) await call();
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

export async function roundTripFigure(ctx: FigureContext): Promise<Figure> {
  const bench = await inProcessBenchBroker(1);
  try {
    const [agent] = await bench.agents(1);
    const { operationId } = await agent!.run(QUICK_COMMAND);
    const get = () => agent!.client.callTool({ name: "lomi_operation_get", arguments: { operationId } });
    const echo = await echoClient((await get()) as CallToolResult);
    const callEcho = () => echo.callTool({ name: ECHO, arguments: { operationId } });
    // Samples of tens of milliseconds, not a few: with 200 calls the echo measured 14 to 45 µs from one run to the next.
    const calls = ctx.quick ? 2000 : 5000;
    const gets: number[] = [];
    const echoes: number[] = [];
    for (let run = 0; run < ctx.runs; run++) {
      ctx.progress(`run ${run + 1}/${ctx.runs}`);
      echoes.push(await microsPerCall(calls, callEcho));
      gets.push(await microsPerCall(calls, get));
    }
    await echo.close();
    return figure({
      id: "operation-get",
      label: "lomi_operation_get round trip",
      unit: "µs",
      figure: summarize(gets),
      baseline: { label: "echo tool, same SDK and transport", summary: summarize(echoes) },
      goal: { on: "ratio", atMost: 1.2, text: "≤ 1.2× echo" },
      note: "the echo runs on its own SDK Server (the broker's server takes no extra tool without a change to reference-broker/), answering lomi_operation_get's own reply",
    });
  } finally {
    await bench.close();
  }
}
