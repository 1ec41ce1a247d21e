import { systemClock, type Clock } from "../protocol/ports.js";
import { VirtualClock } from "./virtual-clock.js";

/** Lomi's clock as the simulator keeps it: it can be read, and jumped ahead (a day is a step, not a wait). */
export interface LomiClock extends Clock {
  advance(ms: number): void;
}

export const CLOCK_MODES = ["real", "virtual"] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

/** Makes Lomi's clock for a world that starts at `start` (the world seed's clockStart). */
export type ClockFactory = (start: number) => LomiClock;

/**
 * Follows real time (read from `source`), so commands finish and retry epochs expire as they would in
 * Lomi; a jump ahead adds to it. The world's clockStart does not apply: real time is the time.
 */
export class RealTimeClock implements LomiClock {
  private offset = 0;
  constructor(private readonly source: Clock = systemClock) {}
  now(): number {
    return this.source.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

/** virtual: stands still until advanced, so the same seed replays the same run; real: follows the system clock. */
export function clockFactory(mode: ClockMode): ClockFactory {
  return mode === "real" ? () => new RealTimeClock() : (start) => new VirtualClock(start);
}
