import { parseArgs } from "node:util";
import { LomiError } from "../protocol/errors.js";
import { simulatorHandlers } from "./handlers.js";
import { SimulatorHost } from "./host.js";
import { serveHandlers } from "./http-server.js";
import { readWorldFile } from "./world-file.js";

const HELP = `lomi-sim — the simulated Lomi (native bridge + control API over HTTP on 127.0.0.1)

Usage:
  lomi-sim serve [--port N] [--world FILE] [--seed N] [--approve-pairings]

Options:
  --port N             port to listen on (default 4545; 0 picks a free one)
  --world FILE         the world seed (default fixtures/worlds/default.json)
  --seed N             seeds identifiers (default 1)
  --approve-pairings   the simulated user approves every pairing at once
  -h, --help           this text

The bridge is under /native/v1 (docs/native-bridge.md); the control API under /control/v1.
It prints "lomi-sim listening on URL" once ready.`;

function fail(message: string): never {
  process.stderr.write(`lomi-sim: ${message}\nRun lomi-sim --help for usage.\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        port: { type: "string", default: "4545" },
        world: { type: "string" },
        seed: { type: "string", default: "1" },
        "approve-pairings": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${HELP}\n`);
    if (!values.help) process.exitCode = 2;
    return;
  }
  if (positionals[0] !== "serve" || positionals.length > 1) fail(`unknown command ${positionals.join(" ")}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${values.port}`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a non-negative integer, not ${values.seed}`);
  const world = readWorldFile(values.world);
  if (values["approve-pairings"]) world.autoApprovePairings = true;
  const server = await serveHandlers(simulatorHandlers(new SimulatorHost(world, seed)), port);
  process.stdout.write(`lomi-sim listening on ${server.url}\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  fail(error instanceof LomiError ? `${error.code}: ${error.message}` : String(error));
});
