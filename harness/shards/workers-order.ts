import { scenarioKey } from "../run/feature-catalogue.js";
import { readDurations } from "./durations.js";

/**
 * With parallel workers, the feature files of the longest scenarios go first (by the durations --shard
 * balances by): cucumber hands scenarios out in the order of its paths, and a long one handed out
 * last keeps the run going while the other workers sit idle. One worker runs them as the catalogue
 * lists them.
 */
export function workersOrder<S extends { uri: string; name: string }>(scenarios: readonly S[], parallel: number, durationsFile: string): readonly S[] {
  if (parallel <= 1) return scenarios;
  const durations = readDurations(durationsFile);
  const longest = new Map<string, number>();
  for (const s of scenarios) longest.set(s.uri, Math.max(longest.get(s.uri) ?? 0, durations[scenarioKey(s)] ?? 0));
  // A stable sort: a file's scenarios, and files as long as each other, keep the catalogue's order.
  const longestOf = (s: S) => longest.get(s.uri) ?? 0; // every scenario's file was set above
  return [...scenarios].sort((a, b) => longestOf(b) - longestOf(a));
}
