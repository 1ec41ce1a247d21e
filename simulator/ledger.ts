import type { LedgerEntry, UnrecordedEntry } from "../protocol/control-api.js";
import type { Clock } from "../protocol/ports.js";

/** The ground truth of what happened natively, in order. Scenarios compare what a broker says with this. */
export class Ledger {
  private readonly list: LedgerEntry[] = [];
  constructor(private readonly clock: Clock) {}

  record(entry: UnrecordedEntry): LedgerEntry {
    const full: LedgerEntry = { sequence: this.list.length + 1, at: new Date(this.clock.now()).toISOString(), ...entry };
    this.list.push(full);
    return full;
  }

  entries(): readonly LedgerEntry[] {
    return this.list;
  }
}
