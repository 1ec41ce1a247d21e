import type { Timers } from "./ports.js";

interface Pending {
  at: number;
  fire: () => unknown;
}

/**
 * Timers on a clock that moves only when its owner moves it (the harness, for a broker in its
 * process): what falls due fires then, in the order it falls due, so a seeded run replays.
 */
export class VirtualTimers implements Timers {
  private current = 0;
  /** By due time; timers due together in the order they were set. */
  private pending: Pending[] = [];

  now(): number {
    return this.current;
  }

  after(ms: number, fire: () => unknown): () => void {
    const timer: Pending = { at: this.current + Math.max(0, ms), fire };
    const at = this.pending.findIndex((p) => p.at > timer.at);
    this.pending.splice(at === -1 ? this.pending.length : at, 0, timer);
    return () => {
      this.pending = this.pending.filter((p) => p !== timer);
    };
  }

  /**
   * Moves the clock on to `to` (never back), firing each timer due by then at its due time, those it
   * sets meanwhile included; answers what each fire answered. That work is not awaited here: work
   * that waits for the scenario (a held dispatch) must not hold up the wait that moves the clock.
   */
  advanceTo(to: number): unknown[] {
    const answers: unknown[] = [];
    for (let next = this.pending[0]; next !== undefined && next.at <= to; next = this.pending[0]) {
      this.pending.shift();
      this.current = Math.max(this.current, next.at);
      answers.push(next.fire());
    }
    this.current = Math.max(this.current, to);
    return answers;
  }
}
