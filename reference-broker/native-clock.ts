/**
 * Lomi's time as the broker reads it across the native bridge: the clock retry-epoch expiry and
 * receipt timestamps are measured on (docs/decisions.md). The broker asks Lomi rather than reading
 * its own, so a scenario can move it; a read is a round trip, and fails when Lomi does not answer.
 * (The simulator's LomiClock is that clock itself, as Lomi keeps it.)
 */
export interface NativeClock {
  now(): Promise<number>;
}
