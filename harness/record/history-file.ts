import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { configError } from "../harness-error.js";
import { formatHistory, HISTORY_FORMAT, parseRecords, type HistoryRecord } from "../history/format.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

/** A connection label the recorder gives: its run's number first (`stdio-3`, `http-2.1`). */
const RUN_OF_LABEL = /^(?:stdio|http)-(\d+)/;

/**
 * The history file a recorder appends to, one record a line, each written (one write(2)) the moment
 * it is made: a recorder killed at any point leaves every finished call on disk, and loses at most the
 * calls still in flight. Several sessions, one after another (a client restarting a crashed broker
 * starts the recorder again), append to one file; each recorder run numbers its connections after
 * those already there.
 */
export class HistoryFile {
  /** What the file held before this run: --live judges this run's records after them. */
  readonly earlier: readonly HistoryRecord[];
  /** This run's number: one more than the last run the file shows. */
  readonly run: number;
  private readonly fd: number;

  constructor(
    readonly file: string,
    source: string,
  ) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if (systemCodeOf(error) !== "ENOENT") throw configError(`cannot read the history ${file} (${systemCodeOf(error) ?? messageOf(error)})`);
    }
    const earlier = text.trim() === "" ? [] : parseRecords(text, file);
    this.run = 1 + Math.max(0, ...earlier.flatMap(runsOf));
    try {
      this.fd = openSync(file, "a");
    } catch (error) {
      throw configError(`cannot write the history ${file} (${systemCodeOf(error) ?? messageOf(error)})`);
    }
    if (earlier.length === 0) {
      const header: HistoryRecord = { type: "header", format: HISTORY_FORMAT, source, ledger: false, clock: "recorder" };
      this.append(header);
      earlier.push(header);
    }
    this.earlier = earlier;
  }

  append(record: HistoryRecord): void {
    writeSync(this.fd, formatHistory([record]));
  }

  close(): void {
    closeSync(this.fd);
  }
}

function runsOf(record: HistoryRecord): number[] {
  const label = record.type === "call" ? record.connection : record.type === "fault" ? record.detail.connection : undefined;
  const run = typeof label === "string" ? RUN_OF_LABEL.exec(label)?.[1] : undefined;
  return run === undefined ? [] : [Number(run)];
}
