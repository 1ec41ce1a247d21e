import type { Clock } from "../protocol/ports.js";

/** Lomi's clock in the simulator: it only moves when a scenario moves it, so a day is a step, not a wait. */
export class VirtualClock implements Clock {
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
  iso(): string {
    return new Date(this.current).toISOString();
  }
}
