import { configError } from "../harness-error.js";

/** One part of a run split N ways: `index` counts from 1, as `--shard 2/3` says it. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** A shard as every report and progress line writes it: "2/3". */
export const shardText = (s: ShardSpec) => `${s.index}/${s.count}`;

/** `--shard K/N`: K from 1 to N; anything else is a configuration error (exit 2) saying what is expected. */
export function parseShard(text: string, option = "--shard"): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count || count > 1000) {
    throw configError(`${option} must be K/N with 1 ≤ K ≤ N (e.g. ${option} 2/3 runs the second of three parts), not ${text}`);
  }
  return { index, count };
}
