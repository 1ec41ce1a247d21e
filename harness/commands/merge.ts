import path from "node:path";
import { writeNotRun } from "./not-run.js";
import { shown, UsageError, type OptionValues } from "./options.js";

/** `merge DIR…`: shards of a conformance run, or parts of an explore campaign, as one run. */
export async function merge(dirs: string[], values: OptionValues): Promise<number> {
  const reports = path.resolve(values.reports);
  const baselineEntries = values["baseline-entries"];
  const startedAt = new Date().toISOString();
  let kind: "shards" | "explore" = "shards";
  try {
    kind = dirs.length === 0 ? "shards" : (await import("../shards/merge.js")).mergeKind(dirs);
    if (dirs.length === 0) throw new UsageError("merge needs the report folders of a run's shards or an explore campaign's parts: lomi-conformance merge DIR… [--reports OUT]");
    if (baselineEntries !== "scenario" && baselineEntries !== "rule") throw new UsageError(`--baseline-entries must be scenario or rule, not ${baselineEntries}`);
    if (dirs.some((d) => path.resolve(d) === reports)) throw new UsageError(`--reports ${values.reports} is one of the folders to merge: give the merged reports a folder of their own`);
    if (kind === "explore") {
      const { mergeExploreParts } = await import("../explore/merge-parts.js");
      return mergeExploreParts(dirs, reports, (t: string) => process.stdout.write(t));
    }
    const { clearReports } = await import("../suite/run-suite.js");
    clearReports(reports);
    const { mergeShards } = await import("../shards/merge.js");
    return await mergeShards({ dirs, reports, baselineEntries, writeBaseline: values["write-baseline"] && shown(values["write-baseline"]), writeDurations: values["write-durations"] && shown(values["write-durations"]) });
  } catch (error) {
    // A merge that cannot make one run says so in every report, as a run that never started does.
    if (kind === "shards") await writeNotRun(reports, error instanceof Error ? error.message : String(error), { broker: "not merged", seed: Number(values.seed), level: "must", tags: undefined, startedAt, requireAll: false });
    throw error;
  }
}
