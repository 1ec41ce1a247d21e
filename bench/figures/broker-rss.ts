// The broker process's resident memory with 32 clients connected over Streamable HTTP, each having
// admitted runs in a terminal of its own, beside the same process listening with no client yet.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { simulatorHandlers } from "../../simulator/handlers.js";
import { SimulatorHost } from "../../simulator/host.js";
import { serveHandlers } from "../../simulator/http-server.js";
import { agentsOnTerminals, benchWorld, QUICK_COMMAND } from "../bench-agent.js";
import { BrokerProcess } from "../http-broker-process.js";
import { figure, type Figure } from "../report.js";
import { summarize } from "../summary.js";
import type { FigureContext } from "./figure-context.js";

const CLIENTS = 32;

/** Why this machine cannot give the figure, if it cannot (it reads /proc). */
export const rssUnavailable = (): string | undefined => (existsSync("/proc/self/status") ? undefined : "reads VmRSS from /proc, which this platform lacks");

function residentMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) / 1024;
}

async function sample(seed: number, perClient: number): Promise<{ idle: number; loaded: number }> {
  const sim = await serveHandlers(simulatorHandlers(new SimulatorHost({ ...benchWorld(), autoApprovePairings: true }, seed)), 0);
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-rss-"));
  const broker = new BrokerProcess(sim.url, path.join(dir, "receipts.sqlite"), seed);
  try {
    const url = await broker.start();
    const idle = residentMb(broker.pid!);
    const agents = await agentsOnTerminals(CLIENTS, () => new StreamableHTTPClientTransport(new URL(url)));
    await Promise.all(
      agents.map(async (agent) => {
        for (let i = 0; i < perClient; i++) await agent.run(QUICK_COMMAND);
      }),
    );
    const loaded = residentMb(broker.pid!);
    for (const agent of agents) await agent.close();
    return { idle, loaded };
  } finally {
    await broker.kill();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function brokerRssFigure(ctx: FigureContext): Promise<Figure> {
  const idle: number[] = [];
  const loaded: number[] = [];
  for (let run = 0; run < ctx.runs; run++) {
    ctx.progress(`run ${run + 1}/${ctx.runs}`);
    const s = await sample(run + 1, ctx.quick ? 3 : 10);
    idle.push(s.idle);
    loaded.push(s.loaded);
  }
  return figure({
    id: "rss-32",
    label: `broker process RSS, ${CLIENTS} clients (Streamable HTTP)`,
    unit: "MB",
    figure: summarize(loaded),
    baseline: { label: "same process, no client yet", summary: summarize(idle) },
    goal: { on: "median", atMost: 245, text: "≤ 245 MB (half of 490)" },
    note: "node bin/lomi-broker.js --transport http, VmRSS after each client connected, made a terminal and admitted runs; stdio serves one client per process, so 32 clients means HTTP",
  });
}
