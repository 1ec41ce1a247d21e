import type { WorldSeed } from "../protocol/control-api.js";
import { clockFactory, type ClockMode } from "./lomi-clock.js";
import { Simulator } from "./simulator.js";

/** Holds the current simulated Lomi, so a control-API reset can swap the whole world under the same handlers. */
export class SimulatorHost {
  current: Simulator;
  /** A reset keeps the clock mode: the world changes, not how Lomi's time runs. */
  constructor(
    world: WorldSeed,
    seed: number,
    private readonly clockMode: ClockMode = "virtual",
  ) {
    this.current = new Simulator(world, seed, clockFactory(clockMode));
  }
  reset(world: WorldSeed, seed: number): Simulator {
    this.current = new Simulator(world, seed, clockFactory(this.clockMode));
    return this.current;
  }
}
