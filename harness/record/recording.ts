import type { Clock } from "../../protocol/ports.js";
import type { HistoryFile } from "./history-file.js";
import { LiveJudge } from "./live.js";
import { TrafficRecorder } from "./tap.js";

/** What both forms of the recorder take. */
export interface RecordingOptions {
  history: HistoryFile;
  live: boolean;
  clock: Clock;
  /** Where --live lines go (the recorder's stderr). */
  print: (line: string) => void;
}

/**
 * The recorder of one run, each record appended to the history the moment it is made and, with
 * --live, handed to the judge; `run` (`stdio-3`, `http-2`) prefixes this run's concurrent marks.
 */
export function startRecording(o: RecordingOptions, run: string): { recorder: TrafficRecorder; live: LiveJudge | undefined } {
  const live = o.live ? new LiveJudge(o.history.earlier, o.print) : undefined;
  const recorder = new TrafficRecorder(
    (record) => {
      o.history.append(record);
      live?.add(record);
    },
    o.clock,
    run,
  );
  return { recorder, live };
}
