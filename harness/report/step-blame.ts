/**
 * Which rules a step checks. A scenario cites its rules as tags; a comment `# checks OP-04` (or
 * `# checks OP-03, OP-04`) inside the scenario says that the steps below it, up to the next such
 * comment, check those rules. Above the first comment (and in the Background), a Then step checks
 * every rule the scenario cites, and a Given or When step checks none: it only prepares the scenario,
 * so its failure is a finding about the answer it met, never a licence to blame the scenario's rules
 * (docs/writing-scenarios.md, "Which rules a failure fails").
 */
export const CHECKS_COMMENT = /^\s*#\s*checks\s+(.*)$/;

export interface Comment {
  line: number;
  text: string;
}

/** A step as the blame reads it: where it is written, and Gherkin's kind of it (Context, Action, Outcome; Unknown for `*`). */
export interface BlamedStep {
  line: number;
  type: string | undefined;
}

/** Why a failure judged none of its scenario's rules: no answer in time, an answer no rule's wording names, or a failed step that only prepared the scenario. */
export type NothingJudged = "no-answer" | "unexpected-answer" | "prepares";

/** A step prepares the scenario (checks nothing of its own) when Gherkin calls it context or action. */
const prepares = (type: string | undefined) => type === "Context" || type === "Action";

/** The rules each step checks (empty: it only prepares the scenario), which are under a `# checks` comment, and what in the comments is wrong. */
export function stepRules(
  comments: readonly Comment[],
  scenarioLine: number,
  steps: readonly BlamedStep[],
  cited: readonly string[],
): { rules: string[][]; explicit: boolean[]; problems: Array<{ line: number; problem: string }> } {
  const lastStep = Math.max(scenarioLine, ...steps.map((s) => s.line));
  const mine = comments.filter((c) => c.line > scenarioLine && c.line < lastStep && CHECKS_COMMENT.test(c.text)).sort((a, b) => a.line - b.line);
  const problems: Array<{ line: number; problem: string }> = [];
  const parsed = new Map<number, string[]>();
  for (const c of mine) {
    // Every comment kept matches; exec gives its list again.
    const listed = CHECKS_COMMENT.exec(c.text)?.[1];
    if (listed === undefined) continue;
    const ids = listed
      .split(",")
      .map((x) => x.trim())
      .filter((x) => x !== "");
    const foreign = ids.filter((id) => !cited.includes(id));
    if (ids.length === 0) problems.push({ line: c.line, problem: `"${c.text.trim()}" names no rule` });
    else if (foreign.length > 0)
      problems.push({
        line: c.line,
        problem: `"${c.text.trim()}" names ${foreign.join(", ")}, which the scenario's tags do not cite (${cited.join(" ") || "none"})`,
      });
    parsed.set(c.line, ids);
  }
  const under = steps.map((s) => (s.line > scenarioLine ? mine.filter((c) => c.line < s.line).at(-1) : undefined));
  const rules = steps.map((s, i) => {
    const comment = under[i];
    if (comment) return parsed.get(comment.line) ?? [];
    return prepares(s.type) ? [] : [...cited];
  });
  return { rules, explicit: under.map((c) => c !== undefined), problems };
}

export interface Blame {
  /** The rules the failure fails. */
  blame: string[];
  /** The cited rules it does not fail: none of them is judged by this scenario (a failed scenario passes no rule). */
  unfinished: string[];
  /** Cited rules whose own `# checks` steps had all run and held before the failure: said in the report, still not a pass. */
  held: string[];
  /** Set when the failure fails no rule, and why: the gate still fails, naming the scenario. */
  nothingJudged?: NothingJudged;
}

/**
 * The rules a failure at step `failedAt` is blamed on. A failure that names its rules (`named`: a
 * finding about the answer, such as the envelope checks every reply gets, or a refusal the history
 * shows to contradict a rule) is a check of those alone: of the named ones its step checks, or else
 * of the named rules themselves, cited by the scenario or not. Otherwise the rules its step checks;
 * a step that checks none (it prepares the scenario), an answer no rule names (`unjudged`), or no
 * answer at all fails the scenario and judges nothing.
 */
export function blameOf(
  rules: readonly string[][],
  explicit: readonly boolean[],
  failedAt: number,
  cited: readonly string[],
  named: readonly string[] = [],
  unjudged?: Exclude<NothingJudged, "prepares">,
): Blame {
  const checks = (from: number, to: number) => new Set(rules.slice(from, to).flatMap((r, i) => (explicit[from + i] ? r : [])));
  const [before, after] = [checks(0, failedAt), checks(failedAt, rules.length)];
  const held = cited.filter((id) => before.has(id) && !after.has(id));
  const checked = rules[failedAt] ?? [];
  const own = checked.filter((id) => named.includes(id));
  const blame = unjudged ? [] : named.length === 0 ? [...checked] : own.length > 0 ? own : [...named];
  const nothingJudged: NothingJudged | undefined = blame.length > 0 ? undefined : (unjudged ?? "prepares");
  return { blame, unfinished: cited.filter((id) => !blame.includes(id)), held, ...(nothingJudged ? { nothingJudged } : {}) };
}
