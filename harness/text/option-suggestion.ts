/** Edit distance between two words (insertions, deletions, substitutions and swaps of two neighbours, each 1: "lnit" is 1 from "lint"). */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** The known word a misspelt one most likely meant ("covrage" → "coverage"), if one is close enough. */
export function suggestWord(word: string, known: readonly string[]): string | undefined {
  const [best] = known
    .map((k) => ({ k, d: distance(word, k) }))
    .filter(({ k, d }) => d <= Math.max(1, Math.floor(k.length / 3)) || (word.length >= 3 && k.startsWith(word)))
    .sort((x, y) => x.d - y.d);
  return best?.k;
}

/** The known option a misspelt one most likely meant ("--tagz" → "--tags"), if one is close enough. */
export function suggestOption(given: string, known: readonly string[]): string | undefined {
  const meant = suggestWord(given.replace(/^-+/, "").replace(/=.*$/, ""), known);
  return meant && `--${meant}`;
}
