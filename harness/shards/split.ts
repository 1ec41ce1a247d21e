import { scenarioKey } from "../run/feature-catalogue.js";
import type { Durations } from "./durations.js";

/**
 * Splits the selection into `count` disjoint parts whose union is the selection, balanced by each
 * scenario's measured duration: longest first, each to the part with the least so far (greedy
 * longest-processing-time). A scenario with no measure weighs the mean of those measured (1 when
 * none is). Ties go by the suite's order and the lowest part, so every shard computes the same
 * split. Each part keeps the suite's order.
 */
export function splitSelection<T extends { uri: string; name: string }>(selection: readonly T[], durations: Durations, count: number): T[][] {
  const measured = selection.map((s) => durations[scenarioKey(s)]).filter((d): d is number => d !== undefined);
  const mean = measured.length > 0 ? measured.reduce((a, b) => a + b, 0) / measured.length : 1;
  const order = selection.map((s, i) => ({ i, weight: durations[scenarioKey(s)] ?? mean })).sort((a, b) => b.weight - a.weight || a.i - b.i);
  const parts = Array.from({ length: count }, () => ({ load: 0, members: new Set<number>() }));
  for (const { i, weight } of order) {
    // The first part with the least load.
    const least = parts.reduce((a, p) => (p.load < a.load ? p : a));
    least.load += weight;
    least.members.add(i);
  }
  return parts.map((p) => selection.filter((_, i) => p.members.has(i)));
}
