import type { BrokerPolicy } from "../reference-broker/broker-policy.js";
import type { Variant } from "./variant.js";

/** Every legal variant of the reference broker; each differs from it in one choice the rules leave open. */
export const VARIANTS: readonly Variant[] = [
  {
    name: "settles-in-the-background",
    difference:
      "records every settlement 300–800 ms after admission (real time in a process; in-process, as the harness waits), by a background read, never sooner",
    leftOpenBy: "OP-01: an operationId is acknowledgement of admission, not proof that the work finished; the client reads until it settles",
    touches: "@OP-05 or @EVT-01 or @EVT-02 or @OP-30 or @CANCEL-04",
    faults: false,
    policy: { settleAfterMs: [300, 800] },
  },
  {
    name: "running-only-when-lomi-runs",
    difference: "records running only once Lomi says the work runs: an operation that needs the user goes queued → awaiting_user",
    leftOpenBy: "protocol/states.ts allows queued → awaiting_user; OP-40 asks only that approved work passes through running",
    touches: "@OP-40 or @OP-30 or @OP-32 or @DUR-02 or @DUR-05 or @CANCEL-01 or @CANCEL-02 or @SERIAL-01",
    faults: true,
    policy: { recordRunning: "when-lomi-runs" },
  },
  {
    name: "target-before-epoch",
    difference: "checks an operation's target workspace before its retry epoch, so a display name is NOT_FOUND rather than RETRY_EPOCH_INVALID",
    leftOpenBy: 'docs/decisions.md, "A display name is an unknown target": the order of the target and epoch checks is the broker\'s (AUTH-03)',
    touches: "@AUTH-03 or @EPOCH-02",
    faults: false,
    policy: { firstCheck: "target" },
  },
  {
    name: "long-uppercase-ids",
    difference: "issues operation IDs, retry epochs and connection IDs of 26 characters from an uppercase alphabet with _ and -",
    leftOpenBy: "protocol/fields.ts: an ID is letters, digits, . _ : - (a retry epoch letters, digits, _ -); nothing fixes its length or alphabet",
    touches: "@OP-05 or @IDEM-04 or @EPOCH-01",
    faults: false,
    policy: { ids: { length: 26, alphabet: "ABCDEFGHJKMNPQRSTVWXYZ0123456789_-" } },
  },
  {
    name: "small-events-pages",
    difference: "answers lomi_events_read with 2 events a page when the request names no limit",
    leftOpenBy: "EVT-02: a client continues with the cursor; the default page size is the broker's (docs/native-bridge.md)",
    touches: "@EVT-01 or @EVT-03",
    faults: true,
    policy: { eventsPageSize: 2 },
  },
  {
    name: "pid-file-store-lock",
    difference: "keeps a second instance off its store with a pid lock file beside it instead of SQLite's exclusive lock",
    leftOpenBy: "DUR-07: a second instance on the same store is refused with a clear message; how is the broker's",
    touches: "@DUR-07 or @DUR-03 or @EVT-03",
    faults: true,
    policy: { storeLock: "pid-file" },
  },
];

/**
 * The variants run together on the whole suite at a URL. Background settlement is left out there: with
 * it, two whole-suite runs at a URL were conformant but for one "fetch failed" from the MCP client's
 * HTTP transport in the same ENV-04 scenario, not reproduced in isolation. In-process every variant
 * runs the whole suite alone (test/e2e/variants.test.ts).
 */
export const ON_THE_WHOLE_SUITE = VARIANTS.filter((v) => v.name !== "settles-in-the-background");

/** The choices of several variants at once: run on the whole suite. */
export const COMBINED: Variant = {
  name: "combined",
  difference: ON_THE_WHOLE_SUITE.map((v) => v.name).join(" + "),
  leftOpenBy: "each of its parts",
  touches: "",
  faults: true,
  policy: Object.assign({}, ...ON_THE_WHOLE_SUITE.map((v) => v.policy)) as Partial<BrokerPolicy>,
};

export const ALL_VARIANTS: readonly Variant[] = [...VARIANTS, COMBINED];
