import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { scenarioSeed } from "../run-parameters.js";
import { SimulatorFixture } from "../simulator-fixture.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { StdioProcessTransport } from "./stdio-process.js";

/**
 * A broker process started while the scenario before its own runs, against the simulated Lomi that
 * scenario will have (served ahead, SimulatorFixture.nextFreshUrl) and on a store directory of its
 * own: the scenario then pays the MCP handshake, not the broker's start. A worker keeps one.
 */
export interface WarmSpare {
  command: string;
  nativeUrl: string;
  storeDir: string;
  storePath: string;
  transport: StdioProcessTransport;
}

/** What a spare broker is started with (the environment contract's LOMI_NATIVE_URL, LOMI_STORE_PATH, LOMI_SEED). */
export interface SpareWiring {
  nativeUrl: string;
  storePath: string;
  seed: number;
}

let next: Promise<WarmSpare | undefined> | undefined;

/**
 * Starts the next scenario's broker now. Its seed follows from the seed of the scenario that starts
 * it, so a run repeats exactly in the same order; a broker process is otherwise what it would be.
 */
export function prepareSpare(command: string, seed: number, launcher: (wiring: SpareWiring) => StdioProcessTransport): void {
  if (next) return;
  next = (async () => {
    const nativeUrl = await SimulatorFixture.nextFreshUrl(readWorldFile());
    const storeDir = mkdtempSync(path.join(os.tmpdir(), "lomi-scenario-"));
    const storePath = path.join(storeDir, "receipts.sqlite");
    const transport = launcher({ nativeUrl, storePath, seed: scenarioSeed(seed, "warm spare") });
    // A spare that cannot start fails the connect of the scenario that takes it, with the same words.
    await transport.launch().catch(() => undefined);
    return { command, nativeUrl, storeDir, storePath, transport };
  })().catch(() => undefined);
}

/** The spare for a scenario whose simulated Lomi is at `nativeUrl`, if one was started for it; any other is ended. */
export async function takeSpare(command: string, nativeUrl: string): Promise<WarmSpare | undefined> {
  const spare = await next;
  next = undefined;
  if (!spare) return undefined;
  if (spare.command === command && spare.nativeUrl === nativeUrl) return spare;
  await endSpare(spare);
  return undefined;
}

/** Ends a spare's process group and removes its store directory. */
async function endSpare(spare: WarmSpare): Promise<void> {
  await spare.transport.close();
  rmSync(spare.storeDir, { recursive: true, force: true });
}

/** Ends the spare nobody took (the end of a worker's scenarios): its process must not hold the worker open. */
export async function discardSpare(): Promise<void> {
  const spare = await next;
  next = undefined;
  if (spare) await endSpare(spare);
}
