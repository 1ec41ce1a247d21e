// The ports every source of non-determinism sits behind, so that one seed replays one run.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
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
