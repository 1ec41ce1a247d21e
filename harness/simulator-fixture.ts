import type { WorldSeed } from "../protocol/control-api.js";
import { simulatorHandlers } from "../simulator/handlers.js";
import { SimulatorHost } from "../simulator/host.js";
import { serveHandlers, type RunningServer } from "../simulator/http-server.js";
import { IN_PROCESS_ORIGIN, interceptInProcess } from "../simulator/interception.js";
import { SimControl } from "./sim-control.js";

/** The simulated Lomi of one scenario: in this process through msw, or on a real 127.0.0.1 port. */
export class SimulatorFixture {
  private constructor(
    readonly host: SimulatorHost,
    readonly url: string,
    private readonly server: RunningServer | undefined,
  ) {}

  static async start(world: WorldSeed, seed: number, network: boolean): Promise<SimulatorFixture> {
    const host = new SimulatorHost(world, seed);
    const handlers = simulatorHandlers(host);
    if (!network) {
      interceptInProcess(handlers);
      return new SimulatorFixture(host, IN_PROCESS_ORIGIN, undefined);
    }
    const server = await serveHandlers(handlers);
    return new SimulatorFixture(host, server.url, server);
  }

  control(): SimControl {
    return new SimControl(this.url);
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
