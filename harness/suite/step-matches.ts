import type { LoadedLibrary } from "../authoring/step-vocabulary.js";

/**
 * Remembers what each step definition's expression matched, by step text. Cucumber matches a step's
 * text against its definition three times in a run (to find it, to report its arguments, to call
 * it), and each match of a cucumber expression measures its groups' positions with
 * regexp-match-indices, which rebuilds a regular expression every time: a fifth of an in-process
 * run's CPU. A match depends on the text alone and its arguments are read, never changed, so the
 * same text answers the same arguments, in this run and the next of the same process (teeth's
 * judges make run after run). Only matches are kept: a definition that does not match is a quick
 * miss, and there are as many of those as texts times definitions.
 */
export function rememberStepMatches(support: LoadedLibrary): void {
  for (const { expression } of support.stepDefinitions) {
    const match = expression.match.bind(expression);
    const matched = new Map<string, unknown[]>();
    expression.match = (text: string) => {
      const known = matched.get(text);
      if (known) return known;
      const found = match(text);
      if (found) matched.set(text, found);
      return found;
    };
  }
}
