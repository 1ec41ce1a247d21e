import { Formatter, type IFormatterOptions } from "@cucumber/cucumber";
import { TestStepResultStatus, type Envelope, type Pickle } from "@cucumber/messages";
import { PROGRESS_MEDIA_TYPE } from "../report/attachments.js";
import { MessageCollector, worstStep } from "../report/message-collector.js";

/** The tag of a scenario known to take long (it fills a store, waits out a lease): the log says so first. */
export const SLOW_TAG = "@slow";
const RULE_TAG = /^@([A-Z]+-\d{2})$/;
const WORD: Record<string, string> = {
  PASSED: "passed",
  FAILED: "FAILED",
  SKIPPED: "skipped",
  PENDING: "pending",
  UNDEFINED: "UNDEFINED",
  AMBIGUOUS: "AMBIGUOUS",
  UNKNOWN: "unknown",
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const clock = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${Math.round(ms / 1000)} s`);
const toMs = (t: { seconds: number; nanos: number }) => t.seconds * 1000 + t.nanos / 1e6;

/** A pickle as the log names it. */
const labelOf = (p: Pickle) =>
  scenarioLabel(
    p.name,
    p.tags.map((t) => t.name),
  );

/** One scenario as the log names it: its first rule and its name. */
export function scenarioLabel(name: string, tags: readonly string[]): string {
  const rule = tags.map((t) => RULE_TAG.exec(t)?.[1]).find((id) => id !== undefined);
  return rule ? `${rule} ${name}` : name;
}

/** The line a finished scenario leaves in a log: `[37/268] IDEM-01 A retry after a lost reply … passed 0.4 s`. */
export function finishedLine(done: number, total: number, label: string, status: string, ms: number): string {
  return `[${String(done).padStart(String(total).length)}/${total}] ${label} … ${WORD[status] ?? status.toLowerCase()} ${seconds(ms)}`;
}

/** The line a long step's progress leaves, under the scenario it belongs to: `  CAP-01 A full store …: filled 512 of 4096 receipts (3 s)`. */
export const progressLine = (label: string, body: string) => `  ${label}: ${body.split("\n")[0]}`;

/** A shard's log line says which shard it is, and what is left of it: `[shard 2/3] [37/90] … passed 0.4 s · about 1 min 2 s left`. */
export function shardLine(shard: string, line: string, done: number, total: number, elapsedMs: number): string {
  const eta = done > 0 && done < total ? ` · about ${clock((elapsedMs / done) * (total - done))} left` : "";
  return `[shard ${shard}] ${line}${eta}`;
}

/** Set when the run is stopped: its verdict is the last word on the console, and no progress line follows it (workers finish a scenario meanwhile). */
let stopped = false;
export const stopProgress = (): void => {
  stopped = true;
};

/** A scenario still running after this long gets a line saying so, and another each time as long again: a slow broker's run is slow, not stuck. */
export const LONG_SCENARIO_MS = 30_000;

/** How many "still running" lines a scenario running for `ms` has earned. */
export const longNotesDue = (ms: number) => Math.floor(ms / LONG_SCENARIO_MS);

/** The live line on a terminal: count, share, elapsed and an estimate of what remains. */
export function liveLine(done: number, total: number, elapsedMs: number, running: string | undefined): string {
  const eta = done > 0 ? ` · about ${clock((elapsedMs / done) * (total - done))} left` : "";
  return `[${done}/${total}] ${Math.floor((done / Math.max(total, 1)) * 100)}% · ${clock(elapsedMs)}${eta}${running ? ` · ${running}` : ""}`;
}

/**
 * Progress a person and a CI log can follow. Not on a terminal: one line per finished scenario.
 * On a terminal: a live line with the count and an estimate, and a kept line for each failure.
 * Either way, a note before a scenario tagged @slow. It reads the run as the collector folds it, live.
 */
export default class ProgressFormatter extends Formatter {
  static override readonly documentation = "Lomi: one line per finished scenario, or a live line on a terminal";
  private readonly collected = new MessageCollector();
  /** The "still running" lines each attempt has had, by testCaseStarted id. */
  private readonly longNotes = new Map<string, number>();
  /** Looks at the scenarios running, for the ones that take long (unref'd: it never keeps the process alive). */
  private readonly watch = setInterval(() => this.noteLong(), LONG_SCENARIO_MS / 6).unref();
  /** The run's start until cucumber says when it started. */
  private readonly createdAt = Date.now();
  private readonly tty: boolean;
  /** "2/3" when this run is a shard (formatOptions.lomiShard). */
  private readonly shard: string | undefined;

  constructor(options: IFormatterOptions) {
    super(options);
    this.tty = "isTTY" in options.stream && options.stream.isTTY === true;
    // A custom format option: cucumber types those as any.
    const shard: unknown = options.parsedArgvOptions.lomiShard;
    this.shard = typeof shard === "string" ? shard : undefined;
    options.eventBroadcaster.on("envelope", (e: Envelope) => this.on(e));
  }

  private on(e: Envelope): void {
    this.collected.collect(e);
    const started = e.testCaseStarted && this.collected.attempts.get(e.testCaseStarted.id);
    if (started) {
      if (started.pickle.tags.some((t) => t.name === SLOW_TAG)) this.keep(`note: ${labelOf(started.pickle)} is known to take long; the run is not stuck`);
      else if (this.tty) this.live(labelOf(started.pickle));
    }
    if (e.attachment?.mediaType === PROGRESS_MEDIA_TYPE && e.attachment.testCaseStartedId) {
      const pickle = this.collected.attempts.get(e.attachment.testCaseStartedId)?.pickle;
      const line = progressLine(pickle ? labelOf(pickle) : "a scenario", e.attachment.body);
      if (this.tty) this.live(line.trim());
      else this.keep(line);
    }
    const finished = e.testCaseFinished && this.collected.attempts.get(e.testCaseFinished.testCaseStartedId);
    if (finished?.finished) {
      const worst = worstStep(finished).status;
      const ms = toMs(finished.finished.at) - toMs(finished.startedAt);
      // --retries: the failed attempt is said, so a scenario that then passes does not hide it.
      if (finished.finished.willBeRetried)
        this.keep(
          `  ${labelOf(finished.pickle)}: attempt ${finished.attempt + 1} ${WORD[worst] ?? worst.toLowerCase()}; trying it again on a fresh broker (--retries)`,
        );
      else {
        const { done, total } = this.count();
        const line = `${finishedLine(done, total, labelOf(finished.pickle), worst, ms)}${finished.attempt > 0 ? ` (attempt ${finished.attempt + 1})` : ""}`;
        const logged = this.shard ? shardLine(this.shard, line, done, total, this.elapsedMs()) : line;
        if (!this.tty || worst === TestStepResultStatus.FAILED) this.keep(logged);
        else this.live(undefined);
      }
    }
    if (e.testRunFinished) clearInterval(this.watch);
    if (e.testRunFinished && this.tty) this.log("\r\x1b[2K");
  }

  /** The scenarios finished, of the test cases cucumber announced. */
  private count(): { done: number; total: number } {
    return { done: this.collected.lastAttempts().length, total: this.collected.testCases.size };
  }

  private elapsedMs(): number {
    const started = this.collected.runStarted;
    return Date.now() - (started ? toMs(started.timestamp) : this.createdAt);
  }

  /** A line for each scenario that has run long, and again each time as long again: `  CAP-01 …: still running after 1 min 0 s`. */
  private noteLong(): void {
    for (const a of this.collected.attempts.values()) {
      const ms = Date.now() - toMs(a.startedAt);
      if (a.finished || longNotesDue(ms) <= (this.longNotes.get(a.id) ?? 0)) continue;
      this.longNotes.set(a.id, longNotesDue(ms));
      this.keep(progressLine(labelOf(a.pickle), `still running after ${clock(ms)}`));
    }
  }

  /** A line that stays: on a terminal it replaces the live line, which is redrawn below it. */
  private keep(line: string): void {
    if (stopped) return;
    if (!this.tty) return this.log(`${line}\n`);
    this.log(`\r\x1b[2K${line}\n`);
    this.live(undefined);
  }

  private live(running: string | undefined): void {
    if (stopped) return;
    const width = "columns" in this.stream && typeof this.stream.columns === "number" ? this.stream.columns : 100;
    const { done, total } = this.count();
    const line = `${this.shard ? `[shard ${this.shard}] ` : ""}${liveLine(done, total, this.elapsedMs(), running)}`;
    this.log(`\r\x1b[2K${line.slice(0, width - 1)}`);
  }
}
