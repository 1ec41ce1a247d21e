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
 */
export function checkPartSet<Run extends object>(parts: ReadonlyArray<Part<Run>>, fields: Record<keyof Run, string>, what: "shard" | "part"): void {
  const first = parts[0];
  if (!first) throw configError("merge needs the report folders of a run's parts: lomi-conformance merge DIR… [--reports OUT]");
  for (const p of parts.slice(1)) {
    for (const field of ["count", ...Object.keys(fields)] as Array<keyof Run | "count">) {
      const [ours, theirs] = field === "count" ? [first.count, p.count] : [first.run[field], p.run[field]];
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        const words = field === "count" ? `${what} count` : fields[field];
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
  const got = [...byIndex.keys()].sort((a, b) => a - b).map((k) => `${k}/${first.count}`).join(", ");
  if (missing.length > 0) throw configError(`${what} ${missing.map((k) => `${k}/${first.count}`).join(", ")} ${missing.length > 1 ? "are" : "is"} missing: merge got ${got}, and fewer ${what}s would be a smaller run`);
}
