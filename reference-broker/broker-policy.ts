import { DEFAULT_IDS } from "../protocol/ports.js";
import { EVENTS_PAGE_DEFAULT } from "../protocol/tools/operation.js";

/**
 * What the rules leave to the broker, as explicit knobs. The reference broker runs with
 * REFERENCE_POLICY; variants/ runs it with other legal choices to show that the suite judges
 * every one of them conformant. None of these may change what the rules demand.
 */
export interface BrokerPolicy {
  /**
   * How long (milliseconds after admission, on the broker's timers: real time in a process, the
   * harness's waits in-process) the broker leaves a settlement Lomi reported unrecorded; it then
   * settles in the background. [0, 0]: record it when learnt.
   */
  settleAfterMs: readonly [min: number, max: number];
  /**
   * When `running` is recorded: before the dispatch is sent (the receipt then claims the dispatch),
   * or once Lomi says the work runs, so an operation that needs the user goes queued → awaiting_user.
   */
  recordRunning: "before-dispatch" | "when-lomi-runs";
  /** Which an operation's checks come first: its retry epoch, or its target workspace. */
  firstCheck: "epoch" | "target";
  /** The random part of every identifier the broker issues: its length and alphabet. */
  ids: { length: number; alphabet: string };
  /** lomi_events_read's page size when the request names no limit. */
  eventsPageSize: number;
  /** How a second instance is kept off a store in use: SQLite's exclusive lock, or a pid lock file beside it. */
  storeLock: "sqlite-exclusive" | "pid-file";
}

export const REFERENCE_POLICY: BrokerPolicy = {
  settleAfterMs: [0, 0],
  recordRunning: "before-dispatch",
  firstCheck: "epoch",
  ids: DEFAULT_IDS,
  eventsPageSize: EVENTS_PAGE_DEFAULT,
  storeLock: "sqlite-exclusive",
};
