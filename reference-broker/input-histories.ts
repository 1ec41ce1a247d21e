import { LomiError } from "../protocol/errors.js";

export type Acknowledgement = "dispatched" | "prior-dispatch";

/** How many past inputs of one lease are kept to recognise a retry; an older sequence is refused as from the past. */
export const RETAINED_INPUTS = 256;

interface Lane {
  /** The highest inputSequence taken under the lease. */
  last: bigint;
  /** Past inputs by sequence: the payload's fingerprint and Lomi's dispatchId (null: the reply was lost). */
  sent: Map<string, { fingerprint: string; dispatchId: string | null }>;
  /** Inputs on one lease are decided one at a time, in arrival order. */
  tail: Promise<unknown>;
}

/**
 * The broker's ordered-input deduplication: per lease, the next inputSequence and what each past one
 * carried. It lives in memory, per broker instance, on purpose: these histories are session-only and
 * are not restart recovery (a restarted broker's Lomi expires the leases they belonged to).
 */
export class InputHistories {
  private readonly lanes = new Map<string, Lane>();

  /** Sends the input unless its sequence is taken; `send` runs only for the lease's next sequence. */
  submit(
    laneKey: string,
    sequence: string,
    fingerprint: string,
    send: () => Promise<{ dispatchId: string }>,
  ): Promise<{ dispatchId: string; acknowledged: Acknowledgement }> {
    let lane = this.lanes.get(laneKey);
    if (!lane) {
      lane = { last: 0n, sent: new Map(), tail: Promise.resolve() };
      this.lanes.set(laneKey, lane);
    }
    const current = lane;
    const turn = current.tail.then(() => this.decide(current, sequence, fingerprint, send));
    current.tail = turn.catch(() => undefined);
    return turn;
  }

  private async decide(lane: Lane, sequence: string, fingerprint: string, send: () => Promise<{ dispatchId: string }>) {
    const n = BigInt(sequence);
    const next = String(lane.last + 1n);
    const prior = lane.sent.get(sequence);
    if (prior && prior.fingerprint !== fingerprint) {
      throw new LomiError("INPUT_SEQUENCE_CONFLICT", `inputSequence ${sequence} was already sent with another payload; the next inputSequence is ${next}.`, {
        field: "inputSequence",
        nextInputSequence: next,
      });
    }
    if (prior) {
      if (prior.dispatchId === null) {
        throw new LomiError(
          "NATIVE_UNAVAILABLE",
          `Whether inputSequence ${sequence} reached Lomi is unknown (its reply was lost); it is never sent again. Inspect the runtime and continue with ${next}.`,
          { field: "inputSequence" },
        );
      }
      return { dispatchId: prior.dispatchId, acknowledged: "prior-dispatch" as const };
    }
    if (n <= lane.last) {
      throw new LomiError("INPUT_SEQUENCE_CONFLICT", `inputSequence ${sequence} is from the past of this lease; the next inputSequence is ${next}.`, {
        field: "inputSequence",
        nextInputSequence: next,
      });
    }
    if (n !== lane.last + 1n) {
      throw new LomiError("INPUT_SEQUENCE_GAP", `inputSequence ${sequence} skips ahead; the next inputSequence of this lease is ${next}.`, {
        field: "inputSequence",
        nextInputSequence: next,
      });
    }
    try {
      const { dispatchId } = await send();
      this.record(lane, n, sequence, { fingerprint, dispatchId });
      return { dispatchId, acknowledged: "dispatched" as const };
    } catch (error) {
      // A refusal sent nothing and leaves the sequence free; a lost reply takes it, so it is never sent twice.
      if (error instanceof LomiError && error.code === "NATIVE_UNAVAILABLE") this.record(lane, n, sequence, { fingerprint, dispatchId: null });
      throw error;
    }
  }

  private record(lane: Lane, n: bigint, sequence: string, entry: { fingerprint: string; dispatchId: string | null }): void {
    lane.last = n;
    lane.sent.set(sequence, entry);
    const oldest = lane.sent.keys().next();
    if (lane.sent.size > RETAINED_INPUTS && !oldest.done) lane.sent.delete(oldest.value);
  }
}
