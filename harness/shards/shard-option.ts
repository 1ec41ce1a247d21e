import { z } from "zod";

/** One part of a run split N ways: `index` counts from 1, as `--shard 2/3` says it. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** A shard as every report and progress line writes it: "2/3". */
export const shardText = (s: ShardSpec) => `${s.index}/${s.count}`;

/** `--shard K/N` read: K from 1 to N; anything else says what is expected (after the option's name). */
export const shardSpec = z
  .string()
  .trim()
  .transform((text, ctx): ShardSpec => {
    const [, index = NaN, count = NaN] = (/^(\d+)\/(\d+)$/.exec(text) ?? []).map(Number);
    if (!(index >= 1 && index <= count && count <= 1000))
      ctx.addIssue({ code: "custom", message: `must be K/N with 1 ≤ K ≤ N (e.g. --shard 2/3 runs the second of three parts), not ${text}` });
    return { index, count };
  });
