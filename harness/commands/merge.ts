import path from "node:path";
import { choice, command, text } from "./declaration.js";
import { writeNotRun } from "./not-run.js";
import { reportsOption, shown, UsageError } from "./options.js";

/** `merge DIR…`: shards of a conformance run, or parts of an explore campaign, as one run. */
export const MERGE = command({
  name: "merge",
  summary: "a run's shards, or an explore campaign's parts, as one run",
  operands: { count: "any", shown: "DIR…" },
  description:
    "DIR… are the report folders the parts wrote (their --reports), in any order:\n" +
    "  conformance shards (each with shard.json, from lomi-conformance --shard K/N): their cucumber\n" +
    "    messages become one run's, judged as an unsharded run on the same seed is, into OUT:\n" +
    "    conformance.json/.md/.html/.svg, junit.xml, cucumber.html and messages.ndjson, with one verdict\n" +
    "    and one profile; the reports show each shard's wall time and the longest one.\n" +
    "  explore parts (each with explore.json, from lomi-conformance explore --shard K/N): runs, steps and\n" +
    "    faults summed per kind, every violation kept with its replay line, into OUT/explore.json and .md.",
  options: {
    reports: reportsOption("OUT", "where the merged reports go"),
    "write-baseline": text({ value: "FILE", help: "(shards) write the baseline that expects the merged run's failures" }),
    "baseline-entries": choice({
      choices: ["scenario", "rule"],
      default: "scenario",
      help: "(shards) the baseline's entries: one per failing scenario, or one per failing rule, as for a run",
    }),
    "write-durations": text({ value: "FILE", help: "(shards) write each scenario's duration into FILE, to balance the next shards by" }),
  },
  examples: [
    { line: "lomi-conformance merge parts/shard-* --reports reports", says: "a CI matrix's conformance shards: one verdict, one exit code" },
    { line: "lomi-conformance merge parts/explore-* --reports reports/explore", says: "an explore campaign's parts" },
  ],
  notes:
    "Exit codes, as a run's: 0 conformant (explore: no violation), 1 a rule failed (explore: a violation),\n" +
    "2 the parts do not make one run: a shard or part missing, given twice, or of another run (another kit\n" +
    "version, seed, broker, tag expression or shard count), named in the message; the reports say NOT RUN.",
  async run({ values, operands: dirs }) {
    const reports = path.resolve(values.reports);
    const startedAt = new Date().toISOString();
    let kind: "shards" | "explore" = "shards";
    try {
      kind = dirs.length === 0 ? "shards" : (await import("../shards/merge.js")).mergeKind([...dirs]);
      if (dirs.length === 0)
        throw new UsageError("merge needs the report folders of a run's shards or an explore campaign's parts: lomi-conformance merge DIR… [--reports OUT]");
      if (dirs.some((d) => path.resolve(d) === reports))
        throw new UsageError(`--reports ${values.reports} is one of the folders to merge: give the merged reports a folder of their own`);
      if (kind === "explore") {
        const { mergeExploreParts } = await import("../explore/merge-parts.js");
        return mergeExploreParts([...dirs], reports, (t: string) => process.stdout.write(t));
      }
      const { clearReports } = await import("../suite/run-suite.js");
      clearReports(reports);
      const { mergeShards } = await import("../shards/merge.js");
      return await mergeShards({
        dirs: [...dirs],
        reports,
        baselineEntries: values["baseline-entries"],
        writeBaseline: values["write-baseline"] && shown(values["write-baseline"]),
        writeDurations: values["write-durations"] && shown(values["write-durations"]),
      });
    } catch (error) {
      // A merge that cannot make one run says so in every report, as a run that never started does.
      if (kind === "shards")
        await writeNotRun(reports, error instanceof Error ? error.message : String(error), {
          broker: "not merged",
          seed: 1,
          level: "must",
          tags: undefined,
          startedAt,
          requireAll: false,
        });
      throw error;
    }
  },
});
