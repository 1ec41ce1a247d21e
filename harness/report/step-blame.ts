/**
 * Which rules a step checks. A scenario cites its rules as tags; a comment `# checks OP-04` (or
 * `# checks OP-03, OP-04`) inside the scenario says that the steps below it, up to the next such
 * comment, check those rules. Steps above the first comment (and Background steps) set the scene
 * and check every rule the scenario cites. A failing step fails the rules it checks; a rule whose
 * own checks all ran and passed before the failure is not blamed (docs/writing-scenarios.md).
 */
export const CHECKS_COMMENT = /^\s*#\s*checks\s+(.*)$/;

export interface Comment {
  line: number;
  text: string;
}

/** The rules each step checks (undefined: every cited rule), and what in the comments is wrong. */
export function stepRules(comments: readonly Comment[], scenarioLine: number, stepLines: readonly number[], cited: readonly string[]): { rules: Array<string[] | undefined>; problems: Array<{ line: number; problem: string }> } {
  const lastStep = Math.max(scenarioLine, ...stepLines);
  const mine = comments.filter((c) => c.line > scenarioLine && c.line < lastStep && CHECKS_COMMENT.test(c.text)).sort((a, b) => a.line - b.line);
  const problems: Array<{ line: number; problem: string }> = [];
  const parsed = new Map<number, string[]>();
  for (const c of mine) {
    // Every comment kept matches; exec gives its list again.
    const listed = CHECKS_COMMENT.exec(c.text)?.[1];
    if (listed === undefined) continue;
    const ids = listed.split(",").map((x) => x.trim()).filter((x) => x !== "");
    const foreign = ids.filter((id) => !cited.includes(id));
    if (ids.length === 0) problems.push({ line: c.line, problem: `"${c.text.trim()}" names no rule` });
    else if (foreign.length > 0) problems.push({ line: c.line, problem: `"${c.text.trim()}" names ${foreign.join(", ")}, which the scenario's tags do not cite (${cited.join(" ") || "none"})` });
    parsed.set(c.line, ids);
  }
  const rules = stepLines.map((line) => {
    const above = mine.filter((c) => c.line < line).at(-1);
    return above && line > scenarioLine ? parsed.get(above.line) : undefined;
  });
  return { rules, problems };
}

/**
 * The rules a failure at step `failedAt` is blamed on, and the cited rules whose checks it stopped
 * (in that step or later). A failure that names its rules (`named`, from the blame its violation attached: the envelope
 * checks every reply in every scenario gets) is a check of those alone: of the named ones its step
 * checks, or else of the named rules themselves, cited by the scenario or not. A Background step
 * that finds an error reply with isError false thus fails ENV-02, not the rules the scenario cites.
 */
export function blameOf(rules: ReadonlyArray<string[] | undefined>, failedAt: number, cited: readonly string[], named: readonly string[] = [], noAnswer = false): { blame: string[]; unfinished: string[] } {
  // A rule whose own "# checks" steps all ran before the failure keeps that pass, whatever step fails after them.
  const explicit = (from: number, to: number) => new Set(rules.slice(from, to).flatMap((r) => r ?? []));
  const [before, after] = [explicit(0, failedAt), explicit(failedAt, rules.length)];
  const done = new Set(cited.filter((id) => before.has(id) && !after.has(id)));
  const checked = rules[failedAt] ?? cited.filter((id) => !done.has(id));
  const own = checked.filter((id) => named.includes(id));
  // No answer in time judges nothing: the rules the step checks are not judged, never failed.
  const blame = noAnswer ? [] : named.length === 0 ? checked : own.length > 0 ? own : [...named];
  const later = new Set(rules.slice(failedAt + 1).flatMap((r) => r ?? cited));
  return { blame, unfinished: cited.filter((id) => !blame.includes(id) && !done.has(id) && (checked.includes(id) || later.has(id))) };
}
