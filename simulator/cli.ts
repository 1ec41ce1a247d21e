import { parseArgs } from "node:util";
import { advanceClockReply, CONTROL_PATHS } from "../protocol/control-api.js";
import { isOneOf } from "../protocol/closed-lists.js";
import { LomiError, messageOf } from "../protocol/errors.js";
import { parseDuration } from "./duration.js";
import { simulatorRoutes } from "./routes.js";
import { SimulatorHost } from "./host.js";
import { CLOCK_MODES } from "./lomi-clock.js";
import { serveRoutes } from "./http-server.js";
import { readWorldFile } from "./world-file.js";

const HELP = `lomi-sim — the simulated Lomi (native bridge + control API over HTTP on 127.0.0.1)

Usage:
  lomi-sim serve [--port N] [--world FILE] [--seed N] [--approve-pairings] [--clock virtual|real]
  lomi-sim clock advance DURATION [--url URL]

Options:
  --port N             port to listen on (default 4545; 0 picks a free one)
  --world FILE         the world seed (default fixtures/worlds/default.json)
  --seed N             seeds identifiers (default 1)
  --approve-pairings   the simulated user approves every pairing at once
  --clock MODE         Lomi's clock: virtual (default; moves only when advanced, so a seed replays
                       exactly) or real (follows real time; advancing jumps it ahead)
  --url URL            the simulated Lomi to talk to (default http://127.0.0.1:4545; for
                       lomi-broker --simulate, the URL its --control-port printed)
  -h, --help           this text

clock advance jumps Lomi's clock ahead by DURATION (24h, 90m, 30s, 1500ms, 2d): commands that were
due finish and retry epochs past their 24 hours expire. It prints Lomi's new time.

The bridge is under /native/v1 (docs/native-bridge.md); the control API under /control/v1.
serve prints "lomi-sim listening on URL" once ready.`;

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
        clock: { type: "string", default: "virtual" },
        url: { type: "string", default: "http://127.0.0.1:4545" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    fail(messageOf(error));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${HELP}\n`);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const [command, subcommand, duration, ...rest] = positionals;
  if (command === "clock" && subcommand === "advance" && duration !== undefined && rest.length === 0) {
    return advanceClock(values.url, duration);
  }
  if (positionals[0] !== "serve" || positionals.length > 1) fail(`unknown command ${positionals.join(" ")}`);
  const clock = values.clock;
  if (!isOneOf(CLOCK_MODES, clock)) fail(`--clock must be ${CLOCK_MODES.join(" or ")}, not ${values.clock}`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${values.port}`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) fail(`--seed must be a non-negative integer, not ${values.seed}`);
  const world = readWorldFile(values.world);
  if (values["approve-pairings"]) world.autoApprovePairings = true;
  const server = await serveRoutes(simulatorRoutes(new SimulatorHost(world, seed, clock)), port);
  process.stdout.write(`lomi-sim listening on ${server.url}\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** Jumps the clock of a running simulated Lomi through its control API. */
async function advanceClock(url: string, durationText: string): Promise<void> {
  const ms = parseDuration(durationText);
  const response = await fetch(new URL(CONTROL_PATHS.advanceClock, url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  }).catch((error: Error) => fail(`no simulated Lomi answers at ${url} (${error.cause ?? error.message})`));
  if (!response.ok) fail(`${url} refused the clock advance: HTTP ${response.status} ${await response.text()}`);
  const { now } = advanceClockReply.parse(await response.json());
  process.stdout.write(`Lomi's clock is now ${new Date(now).toISOString()} (advanced ${durationText})\n`);
}

main().catch((error) => {
  fail(error instanceof LomiError ? `${error.code}: ${error.message}` : String(error));
});
