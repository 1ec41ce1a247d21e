/** Median, min and max of one figure's runs: what the bench reports instead of a single, noisy sample. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new RangeError("summarize needs at least one sample");
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs: sorted.length };
}

/** Runs `measure` `runs` times, one after the other, and summarizes what it answered. */
export async function repeat(runs: number, measure: (run: number) => Promise<number>): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measure(i));
  return summarize(samples);
}
