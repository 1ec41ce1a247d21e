import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { configError } from "../harness-error.js";
import { readRunRecord } from "../report/run-record.js";
import { compareRuns } from "./compare-runs.js";
import { COMPARE_PREFIX, comparisonMarkdown, comparisonText } from "./compare-text.js";

/** What `compare` writes; a conformance run clears them with its reports, so none outlives the run it compared. */
export const COMPARE_FILES = ["compare.md", "compare.json"];

export interface CompareOptions {
  /** The two reports folders, as given: a run's or a merge of its shards'. */
  base: string;
  head: string;
  /** Where compare.md and compare.json go. */
  out: string;
  write: (text: string) => void;
}

/** `compare BASE HEAD`: what changed, on the console and into compare.md and compare.json; exit 1 when something newly fails. */
export function compareCommand(o: CompareOptions): number {
  const [base, head] = [readRunRecord(o.base), readRunRecord(o.head)];
  for (const [side, dir, run] of [
    ["BASE", o.base, base],
    ["HEAD", o.head, head],
  ] as const) {
    if (run.verdict === "not-run") throw configError(`${side} ${dir}: that run never ran (${run.headline}); nothing to compare`);
  }
  const comparison = compareRuns(base, head, { base: o.base, head: o.head });
  mkdirSync(o.out, { recursive: true });
  writeFileSync(path.join(o.out, "compare.json"), `${JSON.stringify(comparison, null, 2)}\n`);
  writeFileSync(path.join(o.out, "compare.md"), comparisonMarkdown(comparison));
  o.write(comparisonText(comparison));
  o.write(`${COMPARE_PREFIX}compare.md and compare.json in ${path.relative(process.cwd(), o.out) || "."}/\n`);
  return comparison.verdict === "regressed" ? 1 : 0;
}
