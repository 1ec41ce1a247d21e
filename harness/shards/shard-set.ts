import { configError } from "../harness-error.js";
import type { ShardManifest } from "./manifest.js";
import { checkPartSet } from "./part-set.js";

/** What each field of a shard's run means, in a refusal's words (the shard count is checked first). */
const FIELD: Record<Exclude<keyof ShardManifest["run"], "count">, string> = {
  kitVersion: "kit version",
  seed: "seed",
  broker: "broker",
  tags: "tag expression",
  selectionDigest: "scenario selection (digest)",
  level: "level",
  requireAll: "--require-all",
  oracles: "oracles",
  timeoutMs: "--timeout-ms",
  baseline: "baseline",
};

/**
 * Checks that the shards make one whole run (checkPartSet), and that their scenarios neither overlap
 * nor fall short of the selection, which shards balanced by different durations files would do.
 * Answers the first shard given, whose run every other shard's equals.
 */
export function checkShardSet<S extends { dir: string; manifest: ShardManifest }>(shards: readonly S[]): S {
  const { shard: first } = checkPartSet(
    shards.map((shard) => {
      const {
        index,
        run: { count, ...run },
      } = shard.manifest;
      return { dir: shard.dir, index, count, run, shard };
    }),
    FIELD,
    "shard",
  );
  const count = first.manifest.run.count;
  const ranIn = new Map<string, number>();
  for (const s of shards) {
    for (const key of s.manifest.scenarios) {
      const other = ranIn.get(key);
      if (other !== undefined)
        throw configError(
          `the scenario ${key} ran in shard ${other}/${count} and in shard ${s.manifest.index}/${count}: the shards were split by different durations files`,
        );
      ranIn.set(key, s.manifest.index);
    }
  }
  if (ranIn.size !== first.manifest.selectionSize)
    throw configError(`the shards ran ${ranIn.size} of the ${first.manifest.selectionSize} scenarios selected: they were split by different durations files`);
  return first;
}
