import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { Reservation } from "../reference-broker/receipt-store.js";
import type { Mutant } from "./mutant.js";
import { storeReachedBy, storeWrappedBy } from "./wrapped-store.js";

/** A feed read by workspace alone: every pairing's operations there, merged in sequence order. */
class FeedOfEveryPairing extends DelegatingReceiptStore {
  private readonly pairings = new Set<string>();
  override reserveAll(reservations: readonly Reservation[]) {
    for (const r of reservations) this.pairings.add(r.receipt.pairingId);
    return super.reserveAll(reservations);
  }
  override events(pairingId: string, workspaceId: string, after: number, limit: number) {
    const pages = [...new Set([pairingId, ...this.pairings])].map((p) => super.events(p, workspaceId, after, limit));
    const merged = pages.flatMap((p) => p.events).sort((a, b) => a.sequence - b.sequence);
    return { events: merged.slice(0, limit), hasMore: merged.length > limit || pages.some((p) => p.hasMore) };
  }
}

export const evtFeedIgnoresPairing: Mutant = {
  name: "evt-feed-ignores-pairing",
  family: "EVT",
  breaks: ["EVT-04"],
  defect: "lomi_events_read filters by workspace only: the feed shows other pairings' operations in that workspace",
  parts: {
    // Only a feed read reads the store's events; the pairings it merely notes change nothing else.
    openStore: storeReachedBy(
      ({ tool }) => tool === "lomi_events_read",
      storeWrappedBy((inner) => new FeedOfEveryPairing(inner)),
    ),
  },
};
