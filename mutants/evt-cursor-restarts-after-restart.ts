import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { ReceiptStore } from "../reference-broker/receipt-store.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { onReopening, withStoreFile } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

/**
 * Numbers the feed from this instance's opening of the store: its cursor counts the events recorded
 * since, so those from before a restart are out of reach and a cursor from before it points past the
 * events recorded after.
 */
class FeedSinceStart extends DelegatingReceiptStore {
  constructor(
    inner: ReceiptStore,
    private readonly before: number,
  ) {
    super(inner);
  }
  override events(pairingId: string, workspaceId: string, after: number, limit: number) {
    const page = super.events(pairingId, workspaceId, after + this.before, limit);
    return { ...page, events: page.events.map((e) => ({ ...e, sequence: e.sequence - this.before })) };
  }
}

export const evtCursorRestartsAfterRestart: Mutant = {
  name: "evt-cursor-restarts-after-restart",
  family: "EVT",
  // The feed read from its start after a restart begins mid-way through the operations of before it:
  // transitions left out (EVT-01), lost with the restart (EVT-03).
  breaks: ["EVT-03", "EVT-01"],
  defect:
    "the events cursor counts the events recorded since the broker opened its store: after a restart it starts again at 1, so a cursor from before the restart skips the later transitions",
  needs: "crash",
  // Its own rule's scenario shows it; EVT-01 is judged with the whole suite in-process (teeth).
  shownBy: "@EVT-03",
  parts: {
    // A first start counts from 0, as the reference broker does: the part acts on reopenings only.
    openStore: onReopening((file, now, _native, options) => {
      // Counted from the opening of the store: the events its recovery records are this instance's first.
      const before = withStoreFile(file, (db) => db.prepare<[], number>("SELECT COALESCE(MAX(sequence), 0) FROM events").pluck().get()) ?? 0;
      const opened = openSqliteStore(file, now, options);
      return { ...opened, store: new FeedSinceStart(opened.store, before) };
    }),
  },
};
