import { scenarioKey } from "../suite/feature-catalogue.js";
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
  const weight = selection.map((s) => durations[scenarioKey(s)] ?? mean);
  const order = selection.map((_, i) => i).sort((a, b) => weight[b]! - weight[a]! || a - b);
  const load = new Array<number>(count).fill(0);
  const part = new Array<number>(selection.length);
  for (const i of order) {
    let least = 0;
    for (let k = 1; k < count; k++) if (load[k]! < load[least]!) least = k;
    part[i] = least;
    load[least]! += weight[i]!;
  }
  return Array.from({ length: count }, (_, k) => selection.filter((_, i) => part[i] === k));
}
