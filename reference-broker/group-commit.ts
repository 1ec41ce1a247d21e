import type { ReceiptStore, Reservation, StoredReceipt } from "./receipt-store.js";

interface Waiting {
  reservation: Reservation;
  resolve: (reserved: { receipt: StoredReceipt; inserted: boolean }) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the reservations that reach the store in the same turn of the event loop share one
 * durable write (one fsync), so concurrent admissions are not bound by the disk's fsync rate. Each
 * admission learns of its own reservation only once that write has committed; a failed write fails
 * every admission in it, before any of them dispatches.
 */
export class GroupCommit {
  private waiting: Waiting[] = [];

  constructor(private readonly store: ReceiptStore) {}

  reserve(reservation: Reservation): Promise<{ receipt: StoredReceipt; inserted: boolean }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ reservation, resolve, reject });
      // The first of a batch schedules its write after the other admissions of this turn have joined.
      if (this.waiting.length === 1) setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    const batch = this.waiting;
    this.waiting = [];
    let outcomes;
    try {
      outcomes = this.store.reserveAll(batch.map((w) => w.reservation));
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i]!;
      if ("refused" in outcome) w.reject(outcome.refused);
      else w.resolve(outcome);
    });
  }
}
