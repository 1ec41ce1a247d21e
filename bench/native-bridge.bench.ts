// How much each way of reaching the simulated Lomi costs per native call, as ratios to a direct
// in-process call measured in the same run (absolute times on these machines are noise).
import { getResponse } from "msw";
import { NativeClient } from "../reference-broker/native-client.js";
import { simulatorHandlers } from "../simulator/handlers.js";
import { SimulatorHost } from "../simulator/host.js";
import { serveHandlers } from "../simulator/http-server.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../simulator/in-process-route.js";
import { readWorldFile } from "../simulator/world-file.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);

async function timePerCall(label: string, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 100; i++) await call(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await call();
  const ns = Number(process.hrtime.bigint() - start) / CALLS;
  process.stdout.write(`  ${label.padEnd(34)} ${(ns / 1000).toFixed(1).padStart(8)} µs/call\n`);
  return ns;
}

const host = new SimulatorHost(readWorldFile(), 1);
const handlers = simulatorHandlers(host);
process.stdout.write(`native bridge, ${CALLS} clock calls each\n`);
const baseline = await timePerCall("baseline: direct method call", async () => host.current.now());
routeInProcess(host);
const routed = await timePerCall("in-process route (the suite's)", () => new NativeClient(IN_PROCESS_ORIGIN, inProcessFetch).now());
stopRouting();
const msw = await timePerCall("msw getResponse, the same handlers", () =>
  new NativeClient(IN_PROCESS_ORIGIN, (url, init) => getResponse(handlers, new Request(url, init)).then((r) => r!)).now(),
);
const server = await serveHandlers(handlers);
const http = await timePerCall("msw on node:http, 127.0.0.1", () => new NativeClient(server.url).now());
await server.close();
process.stdout.write(
  `ratios to baseline: in-process route ${(routed / baseline).toFixed(0)}x, msw ${(msw / baseline).toFixed(0)}x, http ${(http / baseline).toFixed(0)}x; ` +
    `msw / in-process route ${(msw / routed).toFixed(1)}x, http / msw ${(http / msw).toFixed(2)}x\n`,
);
