import { pointersOf, pointerText } from "./fix-pointers.js";

/**
 * An oracle's findings as every report and console heads them (the suite's, explore's, check's,
 * record --live's): by the rules the findings break (Violation.rules), each once. The oracle's own
 * list (Oracle.rules) is every rule it can judge, never what one finding breaks; where it is shown,
 * it is labelled so.
 */

/** Each rule once, in the order first named. */
export const eachOnce = (rules: readonly string[]): string[] => [...new Set(rules)];

/** The rules these findings break, each once. */
export const brokenRules = (violations: ReadonlyArray<{ rules: readonly string[] }>): string[] => eachOnce(violations.flatMap((v) => v.rules));

/** Rules as a head names them; a finding that names none says so rather than showing an empty list. */
export const rulesText = (rules: readonly string[]) => (rules.length > 0 ? eachOnce(rules).join(", ") : "no rule");

/** An oracle headed by what its findings break: `effects-requested (DUR-01)`. */
export const oracleHead = (id: string, violations: ReadonlyArray<{ rules: readonly string[] }>) => `${id} (${rulesText(brokenRules(violations))})`;

/** The rules an oracle can judge, labelled as such: `can judge ENV-01, ENV-02`. */
export const canJudge = (rules: readonly string[]) => `can judge ${eachOnce(rules).join(", ")}`;

/** Where docs/ say how to satisfy the rules these findings break, a line each (fix-pointers.ts). */
export const pointerLines = (violations: ReadonlyArray<{ rules: readonly string[] }>): string[] =>
  pointersOf(brokenRules(violations)).map((p) => `how to satisfy ${pointerText(p)}`);
