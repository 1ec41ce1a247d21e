/**
 * Lomi's time, the clock retry-epoch expiry and receipt timestamps are measured on (docs/decisions.md):
 * the broker asks Lomi rather than reading its own, so a scenario can move it.
 */
export interface LomiClock {
  now(): Promise<number>;
}
