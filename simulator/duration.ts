import { isOneOf } from "../protocol/closed-lists.js";
import { LomiError } from "../protocol/errors.js";

const UNITS = ["ms", "s", "m", "h", "d"] as const;
const UNIT_MS: Record<(typeof UNITS)[number], number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A span of time as a person writes it on a command line: 24h, 90m, 30s, 1500ms, 2d. */
export function parseDuration(text: string): number {
  const match = /^([0-9]{1,9})([a-z]{1,2})$/.exec(text);
  const unit = match?.[2];
  if (!match || !isOneOf(UNITS, unit))
    throw new LomiError("INVALID_ARGUMENT", `${JSON.stringify(text)} is not a duration: a whole number and a unit, ms, s, m, h or d (24h, 90m, 30s)`);
  return Number(match[1]) * UNIT_MS[unit];
}
