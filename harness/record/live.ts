import { historyOf, type HistoryRecord } from "../explore/history.js";
import { checkHistory, ORACLES } from "../oracles/index.js";

/** The one line `--live` prints for each oracle no recorded traffic can judge. */
export const notApplicableLines = (): string[] =>
  ORACLES.filter((o) => o.needsLedger).map((o) => `lomi-conformance record: not applicable: ${o.id} (${o.rules.join(", ")}) needs Lomi's effect ledger`);

/**
 * `--live`: judges the history each time it grows and prints each violation not seen before (rule,
 * records, one line). Judging waits for the event loop to be free and runs once for all the records
 * that came meanwhile, after the messages that made them were passed on: it never holds one back.
 */
export class LiveJudge {
  private readonly seen = new Set<string>();
  private scheduled = false;

  constructor(
    private readonly records: readonly HistoryRecord[],
    private readonly print: (line: string) => void,
  ) {
    // What the file held before this run was judged when it was recorded: only new findings are news.
    for (const line of this.findings()) this.seen.add(line);
    for (const line of notApplicableLines()) print(line);
  }

  /** Something was appended: judge soon. */
  changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const line of this.findings()) {
        if (this.seen.has(line)) continue;
        this.seen.add(line);
        this.print(line);
      }
    });
  }

  private findings(): string[] {
    if (!this.records.some((r) => r.type === "call")) return [];
    return checkHistory(historyOf([...this.records])).flatMap((v) =>
      v.verdict === "fail" ? v.violations.map((x) => `lomi-conformance record: VIOLATION ${v.rules.join(", ")} (${v.id}) [records ${x.records.join(", ")}]: ${x.message}`) : [],
    );
  }
}
