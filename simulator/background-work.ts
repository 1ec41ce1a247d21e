/**
 * Native work that finishes without virtual time passing (a page load through the simulated web).
 * Lomi lets it finish before it answers the next bridge or control request, so what a broker or a
 * harness reads never depends on how fast this machine is.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  /** Work must handle its own failures; a rejection here would be a bug in the simulator. */
  track(work: Promise<void>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Resolves once nothing is pending, including work that pending work started. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
