import { LomiError } from "../protocol/errors.js";

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A span of time as a person writes it on a command line: 24h, 90m, 30s, 1500ms, 2d. */
export function parseDuration(text: string): number {
  const match = /^([0-9]{1,9})(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new LomiError("INVALID_ARGUMENT", `${JSON.stringify(text)} is not a duration: a whole number and a unit, ms, s, m, h or d (24h, 90m, 30s)`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
