/** Edit distance between two words (insertions, deletions, substitutions, each 1). */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/** The known option a misspelt one most likely meant ("--tagz" → "--tags"), if one is close enough. */
export function suggestOption(given: string, known: readonly string[]): string | undefined {
  const word = given.replace(/^-+/, "").replace(/=.*$/, "");
  const [best] = known
    .map((k) => ({ k, d: distance(word, k) }))
    .filter(({ k, d }) => d <= Math.max(1, Math.floor(k.length / 3)) || (word.length >= 3 && k.startsWith(word)))
    .sort((x, y) => x.d - y.d);
  return best && `--${best.k}`;
}
