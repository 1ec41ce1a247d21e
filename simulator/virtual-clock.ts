import type { LomiClock } from "./lomi-clock.js";

/** Lomi's clock in the simulator: it only moves when a scenario moves it, so a day is a step, not a wait. */
export class VirtualClock implements LomiClock {
  private current: number;
  constructor(start: number) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
