import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { kitPath } from "../../protocol/kit-root.js";
import { scenarioKey } from "../run/feature-catalogue.js";
import { configError } from "../harness-error.js";
import { messageOf } from "../../protocol/errors.js";

/** The durations the kit ships, measured on the reference broker in-process: what --shard balances by. */
export const DEFAULT_DURATIONS = kitPath("fixtures/durations.json");

/**
 * Each scenario's measured duration in ms, keyed by `uri:name` (the key its seed derives from):
 * unlike a line number, it holds when a feature file gains a scenario above it.
 */
const durationsSchema = z.strictObject({
  about: z.string().optional(),
  scenarios: z.record(z.string(), z.number().nonnegative()),
});
export type Durations = Record<string, number>;

export function readDurations(file: string): Durations {
  if (!existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw configError(`the durations file ${file} is not JSON: ${messageOf(error)}`);
  }
  const parsed = durationsSchema.safeParse(raw);
  if (!parsed.success)
    throw configError(
      `the durations file ${file} is not valid at ${parsed.error.issues[0]?.path.join(".") || "(root)"}: ${parsed.error.issues[0]?.message}; expected {"scenarios": {"features/x.feature:name": ms}}`,
    );
  return parsed.data.scenarios;
}

/**
 * Refreshes a durations file from a run: this run's scenarios take their new durations, the others
 * keep theirs, so a --tags run updates only what it ran. Keys sorted: a refresh diffs readably.
 */
export function writeDurations(file: string, results: ReadonlyArray<{ uri: string; name: string; durationMs: number }>): number {
  const merged: Durations = { ...readDurations(file) };
  for (const r of results) merged[scenarioKey(r)] = r.durationMs;
  const scenarios = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
  const about = "each scenario's duration in ms, keyed by uri:name; lomi-conformance --shard balances by it; refresh with --write-durations FILE";
  writeFileSync(file, `${JSON.stringify({ about, scenarios }, null, 2)}\n`);
  return results.length;
}
