import parseTagExpression from "@cucumber/tag-expressions";
import { configError } from "../harness-error.js";
import { suggestWord } from "../text/option-suggestion.js";

/**
 * How many of the suite's scenarios a --tags expression selects, checked before anything runs: a
 * malformed expression is refused with cucumber's own syntax message, and one that selects nothing
 * is refused too (a CI job that ran no scenario must not look green).
 */
export function checkTagSelection(expression: string, scenarios: ReadonlyArray<{ tags: readonly string[] }>): number {
  const selected = selectScenarios(expression, scenarios).length;
  if (selected === 0) {
    const meant = meantExpression(expression, scenarios);
    throw configError(
      `--tags "${expression}" selects no scenario${meant ? `; did you mean --tags "${meant}"?` : ";"} \`lomi-conformance steps\` and docs/rules.json list the tags (rule IDs as @OP-05, capabilities as @needs-crash)`,
    );
  }
  return selected;
}

/**
 * The expression a --tags that selects nothing most likely meant, if that one selects something:
 * each tag written without its @ (IDEM-01), in the wrong case (@idem-01) or misspelt (@IDEM01) is
 * put as the suite's tag; the operators and parentheses stay as they are.
 */
function meantExpression(expression: string, scenarios: ReadonlyArray<{ tags: readonly string[] }>): string | undefined {
  const known = [...new Set(scenarios.flatMap((s) => s.tags))];
  const meant = expression.replace(/[^\s()]+/g, (word) => {
    if (/^(and|or|not)$/.test(word)) return word;
    const tag = word.startsWith("@") ? word : `@${word}`;
    return known.find((k) => k.toLowerCase() === tag.toLowerCase()) ?? suggestWord(tag, known) ?? word;
  });
  if (meant === expression) return undefined;
  try {
    return selectScenarios(meant, scenarios).length > 0 ? meant : undefined;
  } catch {
    return undefined;
  }
}

/** The scenarios a --tags expression selects (all of them without one), in the suite's order; a malformed expression is a configuration error. */
export function selectScenarios<T extends { tags: readonly string[] }>(expression: string | undefined, scenarios: readonly T[]): T[] {
  if (expression === undefined || expression.trim() === "") return [...scenarios];
  let node: ReturnType<typeof parseTagExpression>;
  try {
    node = parseTagExpression(expression);
  } catch (error) {
    throw configError(`--tags: ${(error as Error).message}`);
  }
  return scenarios.filter((s) => node.evaluate([...s.tags]));
}
