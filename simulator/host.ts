import type { WorldSeed } from "../protocol/control-api.js";
import { Simulator } from "./simulator.js";

/** Holds the current simulated Lomi, so a control-API reset can swap the whole world under the same handlers. */
export class SimulatorHost {
  current: Simulator;
  constructor(world: WorldSeed, seed: number) {
    this.current = new Simulator(world, seed);
  }
  reset(world: WorldSeed, seed: number): Simulator {
    this.current = new Simulator(world, seed);
    return this.current;
  }
}
