import { configError } from "../harness-error.js";

/** One part of a split run, as merge checks it: its folder, which part it is, and what all parts share. */
export interface Part<Run> {
  dir: string;
  index: number;
  count: number;
  run: Run;
}

const shown = (value: unknown) => (value === null || value === undefined ? "none" : typeof value === "string" ? `"${value}"` : JSON.stringify(value));

/**
 * Checks that the parts make one whole run, and names the one that does not (a configuration error,
 * exit 2): a part of another run (a field of `run` differs, `fields` says in words which), a part
 * given twice, a part missing. A merge of fewer parts would be a smaller run passing for the whole.
 * Answers the first part given, whose run every other part's equals.
 */
export function checkPartSet<P extends Part<object>>(parts: readonly P[], fields: Record<keyof P["run"], string>, what: "shard" | "part"): P {
  const first = parts[0];
  if (!first) throw configError("merge needs the report folders of a run's parts: lomi-conformance merge DIR… [--reports OUT]");
  // The count first, then the run's fields in the order `fields` names them.
  const compared: Array<readonly [string, string]> = [["count", `${what} count`], ...Object.entries<string>(fields)];
  const valuesOf = (p: P) => new Map<string, unknown>([["count", p.count], ...Object.entries(p.run)]);
  const ourValues = valuesOf(first);
  for (const p of parts.slice(1)) {
    const theirValues = valuesOf(p);
    for (const [field, words] of compared) {
      const [ours, theirs] = [ourValues.get(field), theirValues.get(field)];
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        throw configError(`${p.dir} is ${what} ${p.index}/${p.count} of another run: its ${words} is ${shown(theirs)}, where ${first.dir}'s is ${shown(ours)}`);
      }
    }
  }
  const byIndex = new Map<number, string>();
  for (const p of parts) {
    const earlier = byIndex.get(p.index);
    if (earlier !== undefined) throw configError(`${what} ${p.index}/${p.count} is given twice: ${earlier} and ${p.dir}`);
    byIndex.set(p.index, p.dir);
  }
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((k) => !byIndex.has(k));
  const got = [...byIndex.keys()]
    .sort((a, b) => a - b)
    .map((k) => `${k}/${first.count}`)
    .join(", ");
  if (missing.length > 0)
    throw configError(
      `${what} ${missing.map((k) => `${k}/${first.count}`).join(", ")} ${missing.length > 1 ? "are" : "is"} missing: merge got ${got}, and fewer ${what}s would be a smaller run`,
    );
  return first;
}
