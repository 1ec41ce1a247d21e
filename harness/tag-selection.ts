import parseTagExpression from "@cucumber/tag-expressions";
import { configError } from "./harness-error.js";

/**
 * How many of the suite's scenarios a --tags expression selects, checked before anything runs: a
 * malformed expression is refused with cucumber's own syntax message, and one that selects nothing
 * is refused too (a CI job that ran no scenario must not look green).
 */
export function checkTagSelection(expression: string, scenarios: ReadonlyArray<{ tags: readonly string[] }>): number {
  const selected = selectScenarios(expression, scenarios).length;
  if (selected === 0) throw configError(`--tags "${expression}" selects no scenario; \`lomi-conformance steps\` and docs/rules.json list the tags (rule IDs as @OP-05, capabilities as @needs-crash)`);
  return selected;
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
