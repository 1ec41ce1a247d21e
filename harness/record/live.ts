import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { historyOf, type HistoryRecord } from "../history/format.js";
import { checkHistory, ORACLES } from "../oracles/index.js";
import { eachOnce } from "../report/oracle-findings.js";
import { judgeAgents } from "../agents/judge.js";
import { agentLiveLines, sidesLine } from "../agents/report.js";

/**
 * The one line `--live` prints at the start for what recorded traffic cannot judge: the oracles
 * that need Lomi's effect ledger, the rules only they judge (not judged at all), and those the
 * other oracles judge without them (in part); each rule once.
 */
export function notJudgedLine(): string {
  const ledger = ORACLES.filter((o) => o.needsLedger);
  const judgedWithout = new Set(ORACLES.filter((o) => !o.needsLedger).flatMap((o) => o.rules));
  const rules = eachOnce(ledger.flatMap((o) => o.rules)).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const notAtAll = rules.filter((id) => !judgedWithout.has(id));
  const inPart = rules.filter((id) => judgedWithout.has(id));
  return `lomi-conformance record: not judged from recorded traffic, which carries no Lomi effect ledger (only explore and the suite have one): ${notAtAll.join(", ")}; judged in part, without the ledger's oracles (${ledger.map((o) => o.id).join(", ")}): ${inPart.join(", ")}`;
}

/**
 * Every violation the history shows, one line each (rules, oracle, records, what broke), then each
 * agent's breaches of the agent rules; those only the history's end decides once it has `ended`,
 * with both sides' verdicts in a last line.
 */
export function findings(records: readonly HistoryRecord[], ended = false): string[] {
  if (!records.some((r) => r.type === "call")) return [];
  const history = historyOf([...records]);
  const oracles = checkHistory(history);
  const agents = judgeAgents(history);
  return [
    ...oracles.flatMap((v) =>
      v.verdict === "fail"
        ? v.violations.map(
            (x) => `lomi-conformance record: VIOLATION ${eachOnce(x.rules).join(", ")} (${v.id}) [records ${x.records.join(", ")}]: ${x.message}`,
          )
        : [],
    ),
    ...agentLiveLines(agents, ended),
    ...(ended ? [`lomi-conformance record: ${sidesLine(oracles, agents)}`] : []),
  ];
}

/** What the main thread and the judging thread say to each other. */
export type ToJudge = { type: "record"; record: HistoryRecord } | { type: "drain" };
export type FromJudge = { type: "line"; line: string } | { type: "drained" };

/**
 * The judging thread: compiled, it is the .js beside this file; run from the sources, it loads tsx
 * first (a worker does not inherit the main thread's loader).
 */
function judgeThread(records: readonly HistoryRecord[]): Worker {
  const here = fileURLToPath(import.meta.url);
  const entry = new URL(`./live-worker${path.extname(here)}`, import.meta.url);
  if (here.endsWith(".js")) return new Worker(entry, { workerData: { records } });
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true, workerData: { records } });
}

/**
 * `--live`: each record goes to a judging thread, which judges the whole history as it grows and
 * sends back each violation not seen before; the thread that passes the messages on never waits
 * for a judgement (the oracles take milliseconds on a long history). What the ledger's oracles would
 * judge is said once, at the start.
 */
export class LiveJudge {
  private readonly worker: Worker;
  private drained: (() => void) | undefined;

  constructor(records: readonly HistoryRecord[], print: (line: string) => void) {
    print(notJudgedLine());
    this.worker = judgeThread(records);
    this.worker.unref();
    this.worker.on("message", (m: FromJudge) => {
      if (m.type === "line") print(m.line);
      else this.drained?.();
    });
  }

  add(record: HistoryRecord): void {
    this.worker.postMessage({ type: "record", record } satisfies ToJudge);
  }

  /** Waits until every record sent so far is judged and its findings printed, then ends the thread. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.drained = resolve;
      this.worker.postMessage({ type: "drain" } satisfies ToJudge);
    });
    await this.worker.terminate();
  }
}
