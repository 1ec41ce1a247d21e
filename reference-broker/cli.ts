import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { LomiError, messageOf } from "../protocol/errors.js";
import { systemClock, systemTimers } from "../protocol/ports.js";
import { Broker, type BrokerParts } from "./broker.js";
import { parseFaultPoints } from "./fault-hooks.js";
import { DEFAULT_STORE_LIMITS } from "./receipt-store.js";
import { isLoopback } from "./http-guard.js";
import { connectMcpServer } from "./mcp-server.js";
import { LineStdioTransport } from "./stdio-transport.js";
import type { Fetch } from "./native-client.js";

const HELP = `lomi-broker — the Lomi reference broker (an MCP server)

Usage:
  lomi-broker --native-url URL --store FILE [--transport stdio|http] [--port N] [--host ADDR --token T] [--seed N]
  lomi-broker --simulate [--approve-pairings] [--world FILE] [--clock real|virtual] [--control-port N]
              [--store FILE] [--transport stdio|http] [--port N]

Options:
  --native-url URL     the native bridge of Lomi (default: $LOMI_NATIVE_URL)
  --store FILE         the SQLite receipt store, kept across restarts (default: $LOMI_STORE_PATH)
  --transport T        stdio (default) or http (Streamable HTTP on 127.0.0.1, path /mcp)
  --port N             port for --transport http (default: $LOMI_MCP_PORT, else 3333; 0 picks a free one)
  --host ADDR          address for --transport http (default 127.0.0.1); any other needs a token
  --token T            bearer token every HTTP request must carry (default: $LOMI_BROKER_TOKEN)
  --store-limit N      receipts, and retry epochs, the store admits before RESOURCE_EXHAUSTED
                       (default: $LOMI_STORE_LIMIT, else 4096, the limit the rules name; conformance runs use 4096)
  --seed N             seeds identifiers so a run can be replayed (default: $LOMI_SEED, else random; printed to stderr)
  --simulate           embed the simulated Lomi in this process: nothing else needs to run
  --approve-pairings   with --simulate: the simulated user approves every pairing at once
  --world FILE         with --simulate: the world seed (default fixtures/worlds/default.json)
  --clock MODE         with --simulate: Lomi's clock, real (default: follows real time, so commands
                       finish and retry epochs expire) or virtual (stands still until advanced, so the
                       same seed replays the same run)
  --control-port N     with --simulate: also serve the simulated Lomi's control API on 127.0.0.1:N
                       (0 picks a free one), e.g. for lomi-sim clock advance 24h --url URL
  -h, --help           this text

Environment: LOMI_NATIVE_URL, LOMI_STORE_PATH, LOMI_STORE_LIMIT, LOMI_SEED, LOMI_BROKER_TOKEN as above; LOMI_BROKER_FAULTS arms fault
hooks for durability tests (comma-separated: fail-reserve, crash-after-reserve, crash-after-dispatch,
crash-before-settle; each fires once).

Logs go to stderr; in stdio mode stdout carries only MCP.`;

function fail(message: string): never {
  process.stderr.write(`lomi-broker: ${message}\nRun lomi-broker --help for usage.\n`);
  process.exit(2);
}

async function main(parts: BrokerParts): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        "native-url": { type: "string" },
        store: { type: "string" },
        transport: { type: "string", default: "stdio" },
        port: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        token: { type: "string" },
        seed: { type: "string" },
        "store-limit": { type: "string" },
        simulate: { type: "boolean", default: false },
        "approve-pairings": { type: "boolean", default: false },
        world: { type: "string" },
        clock: { type: "string", default: "real" },
        "control-port": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail(messageOf(error));
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const transport = values.transport;
  if (transport !== "stdio" && transport !== "http") fail(`--transport must be stdio or http, not ${transport}`);
  const portText = values.port ?? process.env.LOMI_MCP_PORT ?? "3333";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${portText}`);
  const token = values.token ?? process.env.LOMI_BROKER_TOKEN;
  if (!isLoopback(values.host) && !token) fail(`--host ${values.host} is reachable beyond this machine: it needs --token or LOMI_BROKER_TOKEN`);
  const seedText = values.seed ?? process.env.LOMI_SEED;
  // No seed given: a fresh one, the only draw outside the seeded Random (a run replays from the seed it was given).
  const seed = seedText === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seedText);
  if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a non-negative integer, not ${seedText}`);

  const limitText = values["store-limit"] ?? process.env.LOMI_STORE_LIMIT ?? String(DEFAULT_STORE_LIMITS.receipts);
  const storeLimit = Number(limitText);
  if (!Number.isInteger(storeLimit) || storeLimit < 1) fail(`--store-limit must be a positive integer, not ${limitText}`);

  let nativeUrl = values["native-url"] ?? process.env.LOMI_NATIVE_URL;
  let storePath = values.store ?? process.env.LOMI_STORE_PATH;
  let nativeFetch: Fetch | undefined;
  if (values.simulate) {
    // Loaded only when asked for: the embedded simulator (msw and the simulated Lomi) costs a broker
    // that serves a real Lomi most of its start-up time, paid again after every crash.
    const [
      { SimulatorHost },
      { controlApiRoutes },
      { serveRoutes },
      { CLOCK_MODES },
      { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess },
      { readWorldFile },
    ] = await Promise.all([
      import("../simulator/host.js"),
      import("../simulator/routes.js"),
      import("../simulator/http-server.js"),
      import("../simulator/lomi-clock.js"),
      import("../simulator/in-process-route.js"),
      import("../simulator/world-file.js"),
    ]);
    const world = readWorldFile(values.world);
    if (values["approve-pairings"]) world.autoApprovePairings = true;
    const clock = CLOCK_MODES.find((mode) => mode === values.clock);
    if (!clock) fail(`--clock must be ${CLOCK_MODES.join(" or ")}, not ${values.clock}`);
    const host = new SimulatorHost(world, seed, clock);
    routeInProcess(host);
    if (values["control-port"] !== undefined) {
      const controlPort = Number(values["control-port"]);
      if (!Number.isInteger(controlPort) || controlPort < 0 || controlPort > 65535) fail(`--control-port must be a port number, not ${values["control-port"]}`);
      const control = await serveRoutes(controlApiRoutes(host), controlPort);
      process.stderr.write(`lomi-broker: simulated Lomi's control API on ${control.url} (clock ${clock})\n`);
    }
    nativeUrl = IN_PROCESS_ORIGIN;
    nativeFetch = inProcessFetch;
    storePath ??= path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-broker-")), "receipts.sqlite");
  }
  if (!nativeUrl) fail("no native bridge: pass --native-url URL, set LOMI_NATIVE_URL, or use --simulate");
  // The bridge is plain HTTP on loopback (httpPost): say so at start, not at the first tool call.
  if (!nativeFetch && !/^http:\/\//i.test(nativeUrl)) fail(`the native bridge URL must start with http://, not ${nativeUrl}`);
  if (!storePath) fail("no receipt store: pass --store FILE or set LOMI_STORE_PATH");

  const faults = parseFaultPoints(process.env.LOMI_BROKER_FAULTS);
  // A crash hook is a real crash: no shutdown code, no flush beyond what SQLite already committed.
  const crash = (): never => {
    process.kill(process.pid, "SIGKILL");
    throw new Error("unreachable: SIGKILL did not end the process");
  };
  const broker = await Broker.start({
    nativeUrl,
    fetch: nativeFetch,
    storePath,
    seed,
    hostClock: systemClock,
    faults,
    crash,
    parts,
    limits: { receipts: storeLimit, epochs: storeLimit },
  });
  // Handlers first: a SIGTERM the moment the ready line appears must still close the store.
  let closeTransport = async (): Promise<void> => undefined;
  const stop = async () => {
    await closeTransport();
    broker.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stderr.write(
    `lomi-broker: seed ${seed}, instance ${broker.instanceId}, store ${storePath}, ${broker.recovered} unfinished operation(s) now outcome_unknown\n`,
  );
  if (transport === "http") {
    // Loaded only for HTTP: a broker over stdio starts without it.
    const { serveHttp } = await import("./http-endpoint.js");
    const endpoint = await serveHttp(broker, { port, host: values.host, token, timers: systemTimers });
    closeTransport = endpoint.close;
    process.stderr.write(`lomi-broker: listening on ${endpoint.url}\n`);
  } else {
    const server = await connectMcpServer(broker, new LineStdioTransport());
    server.onclose = () => {
      broker.close();
      process.exit(0);
    };
  }
}

/** The lomi-broker command; mutants/ runs it with defective parts. */
export function runBrokerCli(parts: BrokerParts = {}): Promise<void> {
  return main(parts).catch((error) => {
    const message = error instanceof LomiError ? `${error.code}: ${error.message}` : String(error instanceof Error ? error.stack : error);
    process.stderr.write(`lomi-broker: ${message}\n`);
    process.exit(2);
  });
}
