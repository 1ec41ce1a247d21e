// The ports every source of non-determinism sits behind, so that one seed replays one run.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/**
 * A process's own delays: a clock they are measured on and the timers that wait on it. Real time
 * in a broker process; in-process the harness keeps them (VirtualTimers), so a seeded run replays.
 */
export interface Timers {
  /** Milliseconds on this clock: only differences between two readings mean anything. */
  now(): number;
  /**
   * Calls `fire` once `ms` have passed on this clock (never before `after` returns), without keeping
   * the process alive for it; what `fire` answers is not awaited. The answer cancels it.
   */
  after(ms: number, fire: () => unknown): () => void;
}

export interface Random {
  /** A fresh identifier: prefix + seeded random characters. */
  id(prefix: string): string;
  /** An integer in [0, bound). */
  int(bound: number): number;
}

import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** The random part of identifiers: its length and alphabet. */
export const DEFAULT_IDS = { length: 12, alphabet: "0123456789abcdefghijklmnopqrstuvwxyz" };

/** A seeded Random (xoroshiro128+): the same seed gives the same identifiers in the same order. */
export function seededRandom(seed: number, ids: { length: number; alphabet: string } = DEFAULT_IDS): Random {
  const rng = xoroshiro128plus(seed);
  const int = (bound: number) => uniformInt(rng, 0, bound - 1);
  return {
    int,
    id(prefix) {
      let s = prefix;
      for (let i = 0; i < ids.length; i++) s += ids.alphabet[int(ids.alphabet.length)];
      return s;
    },
  };
}

export const systemClock: Clock = { now: () => Date.now() };

/** Real time: performance.now(), which no change of the system's date moves, and setTimeout. */
export const systemTimers: Timers = {
  now: () => performance.now(),
  after(ms, fire) {
    const timer = setTimeout(fire, ms).unref();
    return () => clearTimeout(timer);
  },
};
