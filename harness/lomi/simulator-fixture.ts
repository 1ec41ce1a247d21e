import { randomInt } from "node:crypto";
import type { WorldSeed } from "../../protocol/control-api.js";
import { SimulatorHost } from "../../simulator/host.js";
import { serveRoutes, type RunningServer } from "../../simulator/http-server.js";
import { simulatorRoutes, type RouteTable } from "../../simulator/routes.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routedFetch, routeInProcess } from "../../simulator/in-process-route.js";
import { configError } from "../harness-error.js";
import { SimControl, type ControlFetch } from "./sim-control.js";

/**
 * Where a scenario's simulated Lomi lives: inside this process (msw), on a fresh 127.0.0.1 port for
 * a broker the harness starts, or on a fixed port for a broker that is already running and was
 * pointed at it (every scenario then resets the same simulator through the control API).
 */
export type SimulatorPlacement = { kind: "in-process" } | { kind: "fresh-port" } | { kind: "fixed-port"; port: number };

/** Simulators on fixed ports, one per port for the whole run: a running broker was pointed at them. */
const shared = new Map<number, Promise<ServedHost>>();
/**
 * A broker that keeps running remembers the pairings of earlier runs, and the same scenario seed
 * would give the same pairingId again; Lomi never hands out a pairing twice, so each run salts the
 * identifiers of its shared simulator.
 */
const runSalt = randomInt(2 ** 31);

/** Serves the simulated Lomi on 127.0.0.1:port, or says plainly why it cannot. */
export async function serveSimulatorOn(port: number, world: WorldSeed, seed: number): Promise<RunningServer> {
  return (await serveHost(port, new SimulatorHost(world, seed))).server;
}

async function serveHost(port: number, host: SimulatorHost): Promise<ServedHost> {
  const routes = simulatorRoutes(host);
  try {
    return { host, routes, server: await serveRoutes(routes, port) };
  } catch (error) {
    throw configError(
      `the simulated Lomi cannot listen on 127.0.0.1:${port} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); choose another --native-port`,
    );
  }
}

interface ServedHost {
  host: SimulatorHost;
  /** The routes its server answers by, which the harness calls directly for its own control requests. */
  routes: RouteTable;
  server: RunningServer;
}

/**
 * The next scenarios' simulated Lomis on fresh ports, in the order scenarios take them, served ahead
 * so that brokers can be started against them early (warm spares, harness/adapters/warm-spare.ts).
 * A scenario resets the one it takes to its own world and seed: the same as a new one.
 */
const ahead: Promise<ServedHost>[] = [];
/** The URLs of those served ahead that no scenario has taken yet. */
const untaken = new Set<string>();

/** The simulated Lomi of one scenario: in this process (its routes called directly), or on a real 127.0.0.1 port. */
export class SimulatorFixture {
  private constructor(
    readonly url: string,
    /** The seed the simulated Lomi runs with (salted for a shared one). */
    readonly seed: number,
    private readonly server: RunningServer | undefined,
    /** How the harness's control client reaches it: its routes, called directly (it runs in this process). */
    readonly controlFetch: ControlFetch,
  ) {}

  /** A fixture for a simulator served from this process: the broker reaches it over HTTP, the harness by its routes. */
  private static served(served: ServedHost, seed: number, own: boolean): SimulatorFixture {
    const { url } = served.server;
    return new SimulatorFixture(
      url,
      seed,
      own ? served.server : undefined,
      routedFetch(url, () => served.routes),
    );
  }

  static async start(world: WorldSeed, seed: number, placement: SimulatorPlacement): Promise<SimulatorFixture> {
    if (placement.kind === "in-process") {
      routeInProcess(new SimulatorHost(world, seed));
      return new SimulatorFixture(IN_PROCESS_ORIGIN, seed, undefined, inProcessFetch);
    }
    if (placement.kind === "fresh-port") {
      const served = await (ahead.shift() ?? serveHost(0, new SimulatorHost(world, seed)));
      untaken.delete(served.server.url);
      served.host.reset(world, seed);
      return SimulatorFixture.served(served, seed, true);
    }
    // A broker that is already running keeps its bridge: the same simulator starts each scenario afresh.
    let served = shared.get(placement.port);
    if (!served) {
      served = serveHost(placement.port, new SimulatorHost(world, seed));
      shared.set(placement.port, served);
    }
    const fixture = SimulatorFixture.served(await served, (seed ^ runSalt) >>> 0, false);
    await fixture.control().reset(world, fixture.seed);
    return fixture;
  }

  control(): SimControl {
    return new SimControl(this.url, this.controlFetch);
  }

  /** Stops this scenario's own simulator; a shared one stays for the next scenario. */
  async stop(): Promise<void> {
    await this.server?.close();
  }

  /** The URL of a simulated Lomi served from now on, for the fresh-port scenario after those already served ahead. */
  static async nextFreshUrl(world: WorldSeed): Promise<string> {
    const served = serveHost(0, new SimulatorHost(world, 0));
    ahead.push(served);
    const { url } = (await served).server;
    untaken.add(url);
    return url;
  }

  /** Whether the simulated Lomi at `url` was served ahead and no scenario has taken it yet. */
  static isServedAhead(url: string): boolean {
    return untaken.has(url);
  }

  static async closeShared(): Promise<void> {
    const servers = [...shared.values(), ...ahead.splice(0)].map((a) => a.then((served) => served.server));
    shared.clear();
    untaken.clear();
    for (const s of servers) await (await s.catch(() => undefined))?.close();
  }
}
