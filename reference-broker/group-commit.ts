import type { LomiError } from "../protocol/errors.js";

/** What a batched write answers for one item: its result, or a refusal of that item alone. */
export type BatchOutcome<R> = R | { refused: LomiError };

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the writes that reach the store in the same turn of the event loop (reservations
 * of admissions, retry epochs of lomi_connect) share one durable write (one fsync), so concurrent
 * callers are not bound by the disk's fsync rate. Each caller learns of its own write only once the
 * batch has committed; a failed write fails every caller in it, before any of them acts on it.
 */
export class GroupCommit<T, R extends object> {
  private waiting: Array<Waiting<T, R>> = [];

  /** `writeAll`: one durable transaction for the whole batch, answering each item in order. */
  constructor(private readonly writeAll: (items: readonly T[]) => Array<BatchOutcome<R>>) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // The first of a batch schedules its write after the other callers of this turn have joined.
      if (this.waiting.length === 1) setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    const batch = this.waiting;
    this.waiting = [];
    let outcomes;
    try {
      outcomes = this.writeAll(batch.map((w) => w.item));
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
