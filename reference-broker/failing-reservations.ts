import { LomiError } from "../protocol/errors.js";
import { DelegatingReceiptStore } from "./delegating-store.js";
import type { Reservation, ReservationOutcome } from "./receipt-store.js";

/**
 * The fail-reserve fault hook as a decorator: the next reservation write fails the way a disk that
 * refuses it does (STORE_UNAVAILABLE for the whole write, nothing stored), so the production store
 * carries no test switch.
 */
export class FailingReservations extends DelegatingReceiptStore {
  /** Armed from the start: the broker's first reservation is the one that fails, once. */
  private armed = true;

  override reserveAll(reservations: readonly Reservation[]): ReservationOutcome[] {
    if (!this.armed) return super.reserveAll(reservations);
    this.armed = false;
    throw new LomiError("STORE_UNAVAILABLE", "The receipt store could not reserve the receipt: disk I/O error (fault hook fail-reserve)");
  }
}
