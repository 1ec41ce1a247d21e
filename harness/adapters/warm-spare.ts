import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { scenarioSeed } from "../run/run-parameters.js";
import { SimulatorFixture } from "../lomi/simulator-fixture.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { StdioProcessTransport } from "./stdio-process.js";

/**
 * A broker process started while the scenarios before its own run, against the simulated Lomi that
 * scenario will have (served ahead, SimulatorFixture.nextFreshUrl) and on a store directory of its
 * own: the scenario then pays the MCP handshake, not the broker's start. A worker keeps SPARES of them.
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

/**
 * Two, not one: a scenario takes tens of milliseconds and a broker's start hundreds, so with one
 * spare a run waited for each start in turn; two start side by side on a second core (the whole
 * suite over stdio on 2 cores: see bench/figures/suite.ts).
 */
const SPARES = 2;

/** The spares in the order of the simulated Lomis they were started against, which is the order scenarios take those. */
const spares: Promise<WarmSpare | undefined>[] = [];
/** The scenarios of this run that have begun in this process. */
let begun = 0;

/**
 * Starts brokers for the next scenarios until SPARES are under way, or as many as scenarios are left
 * when the run says how many this process starts (`scenarios`: it runs them one at a time): a spare
 * for a scenario that never comes is a broker start thrown away, two at the end of every run. Their
 * seeds follow from the seed of the scenario that starts them, so a run repeats exactly in the same
 * order; a broker process is otherwise what it would be.
 */
export function prepareSpares(command: string, seed: number, launcher: (wiring: SpareWiring) => StdioProcessTransport, scenarios?: number): void {
  begun++;
  const wanted = scenarios === undefined ? SPARES : Math.min(SPARES, scenarios - begun);
  while (spares.length < wanted) {
    // Synchronously up to nextFreshUrl's first await: the simulators are served ahead in this order.
    spares.push(startSpare(command, scenarioSeed(seed, `warm spare ${spares.length}`), launcher));
  }
}

async function startSpare(command: string, seed: number, launcher: (wiring: SpareWiring) => StdioProcessTransport): Promise<WarmSpare | undefined> {
  try {
    const nativeUrl = await SimulatorFixture.nextFreshUrl(readWorldFile());
    const storeDir = mkdtempSync(path.join(os.tmpdir(), "lomi-scenario-"));
    const storePath = path.join(storeDir, "receipts.sqlite");
    const transport = launcher({ nativeUrl, storePath, seed });
    // A spare that cannot start fails the connect of the scenario that takes it, with the same words.
    await transport.launch().catch(() => undefined);
    return { command, nativeUrl, storeDir, storePath, transport };
  } catch {
    return undefined;
  }
}

/**
 * The spare for a scenario whose simulated Lomi is at `nativeUrl`, if one was started for it. Before
 * it, a spare whose simulated Lomi a scenario took without starting a broker, or that could not
 * start, is ended; one still waiting for its scenario stays, and so do those after it, unawaited.
 */
export async function takeSpare(command: string, nativeUrl: string): Promise<WarmSpare | undefined> {
  const kept: Promise<WarmSpare | undefined>[] = [];
  for (let pending = spares.shift(); pending !== undefined; pending = spares.shift()) {
    const spare = await pending;
    if (spare?.command === command && spare.nativeUrl === nativeUrl) {
      spares.unshift(...kept);
      return spare;
    }
    if (spare && SimulatorFixture.isServedAhead(spare.nativeUrl)) kept.push(pending);
    else await endSpare(spare);
  }
  spares.push(...kept);
  return undefined;
}

/** Ends a spare's process group and removes its store directory. */
async function endSpare(spare: WarmSpare | undefined): Promise<void> {
  if (!spare) return;
  await spare.transport.close();
  rmSync(spare.storeDir, { recursive: true, force: true });
}

/** Ends the spares nobody took (the end of a worker's scenarios): their processes must not hold the worker open. */
export async function discardSpares(): Promise<void> {
  begun = 0; // the next run in this process (a judging process makes several) counts its own
  const left = spares.splice(0);
  for (const spare of left) await endSpare(await spare);
}
