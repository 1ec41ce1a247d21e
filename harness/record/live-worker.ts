import { parentPort, workerData } from "node:worker_threads";
import type { HistoryRecord } from "../history/format.js";
import { harnessFault } from "../harness-error.js";
import { findings, type FromJudge, type ToJudge } from "./live.js";

// The judging thread of --live (live.ts): judges the history as records come, coalescing those that
// come while it judges, and sends back each violation not seen before.
if (!parentPort) throw harnessFault("live-worker runs only as live.ts's judging thread");
const port = parentPort;
const records: HistoryRecord[] = (workerData as { records: HistoryRecord[] }).records;
// What the file held before this run was judged when it was recorded: only new findings are news.
const seen = new Set(findings(records));
let scheduled = false;

function judge(ended = false): void {
  scheduled = false;
  for (const line of findings(records, ended)) {
    if (seen.has(line)) continue;
    seen.add(line);
    port.postMessage({ type: "line", line } satisfies FromJudge);
  }
}

port.on("message", (m: ToJudge) => {
  if (m.type === "record") {
    records.push(m.record);
    if (!scheduled) {
      scheduled = true;
      setImmediate(judge);
    }
  } else {
    // Drained when the recording ends: what only its end decides is told now, with both sides' verdicts.
    judge(true);
    port.postMessage({ type: "drained" } satisfies FromJudge);
  }
});
