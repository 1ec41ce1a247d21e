import type { ScenarioResult } from "./scenario-results.js";
import { ERROR_NAME, summaryOf } from "./failure-context.js";
import { pointersOf, pointerText } from "./fix-pointers.js";
import { boundedText, oneLine } from "../text/bounded-json.js";

/**
 * Failures grouped by the finding that caused them: an oracle's finding (which oracle, which rules),
 * or else the check that failed (the step, with what varies between scenarios taken out, and the
 * tool it judged). One defect (a retry that creates a second operation) fails many scenarios the
 * same way; the reports open with the groups, largest first, each shown by its plainest failure
 * quoted verbatim, identifiers and values kept, so a reader starts at the cause.
 */
export interface FailureGroup {
  /** The failed step of the group's plainest failure, as written. */
  step: string;
  /** What that failure found: its summary line whole (every value that differs), an oracle's finding in one line. */
  cause: string;
  /** What the group shares: an oracle's finding, or a step's check of a tool. */
  finding: string;
  scenarios: Array<{ name: string; uri: string; line: number | undefined }>;
  /** The rules these failures count against. */
  rules: string[];
  /** Where docs/ say how to satisfy those rules (fix-pointers.ts), each once a run: at the first group that fails it. */
  pointers: string[];
}

/** A step's text or a message with what varies between scenarios taken out: a key to group by, never shown. */
export function normalised(text: string): string {
  return text
    .replace(ERROR_NAME, "")
    .replace(/[[{].*$/s, "…") // a reply or ledger quoted whole: its shape is not the cause
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b[a-z]+[-_][A-Za-z0-9]{6,}\b/g, "<id>") // op-jb7rub4gnxwp, epoch-…, term-…
    .replace(/\b[0-9a-f]{16,}\b/g, "<hex>")
    .replace(/\d+(\.\d+)?/g, "N")
    .replace(/\s+/g, " ")
    .trim();
}

/** A summary line longer than this is not a summary: a safety net, the kit's own never come near it. */
const MAX_CAUSE = 2_000;

/** The finding a failure shares with others of the same defect, in words. */
function findingOf(s: ScenarioResult): string {
  const oracle = s.failure?.oracles?.[0];
  if (oracle) return `oracle ${oracle.id} (${oracle.violations[0]?.rules.join(", ") ?? oracle.rules.join(", ")})`;
  const tool = s.failure?.request?.tool;
  return `check "${normalised(s.failure?.step ?? "(a hook)")}"${tool ? ` of ${tool}` : ""}`;
}

/** The plainest failure of a group: the shortest thing found, the one a reader takes in at once. */
const plainness = (s: ScenarioResult) => causeOf(s).length;
/** An oracle's finding is one sentence (a broker's words it quotes may span lines): read as one line; a step's failure, by its summary. */
function causeOf(s: ScenarioResult): string {
  const finding = s.failure?.oracles?.[0]?.violations[0]?.message;
  return finding !== undefined ? oneLine(finding, MAX_CAUSE) : boundedText(summaryOf(s.reason), MAX_CAUSE);
}

/** The groups of the failures the gate counts (`counted`), largest first; a failure alone is a group of one. */
export function failureGroups(results: readonly ScenarioResult[], counted: (s: ScenarioResult) => boolean): FailureGroup[] {
  const groups = new Map<string, { members: ScenarioResult[]; rules: string[] }>();
  for (const s of results.filter((x) => x.verdict === "fail" && counted(x))) {
    const key = findingOf(s);
    const group = groups.get(key) ?? { members: [], rules: [] };
    group.members.push(s);
    for (const id of s.blame ?? []) if (!group.rules.includes(id)) group.rules.push(id);
    groups.set(key, group);
  }
  const sorted = [...groups]
    .map(([finding, { members, rules }]) => {
      // The first of the plainest, as a stable sort would put it first.
      const plainest = members.reduce((best, s) => (plainness(s) < plainness(best) ? s : best));
      return {
        step: plainest.failure?.step ?? "(a hook)",
        cause: causeOf(plainest),
        finding,
        scenarios: [plainest, ...members.filter((m) => m !== plainest)].map((m) => ({ name: m.name, uri: m.uri, line: m.line })),
        rules,
      };
    })
    .sort((a, b) => b.scenarios.length - a.scenarios.length || a.cause.length - b.cause.length);
  // A rule's pointer once a run, at the first (largest) group that fails it.
  const pointed = new Set<string>();
  return sorted.map((g) => {
    const pointers = pointersOf(g.rules).filter((p) => !pointed.has(p.rule));
    for (const p of pointers) pointed.add(p.rule);
    return { ...g, pointers: pointers.map(pointerText) };
  });
}

/**
 * "Every scenario that ran failed the same way at its start": the broker could not be judged at all
 * (it cannot connect, answers nothing the first step needs). Answers the cause, or undefined. At
 * least two scenarios, every one that was not "not applicable" failed, at its first step or in a
 * Before hook, with the same cause.
 */
export function setupProblemOf(results: readonly ScenarioResult[]): string | undefined {
  const ran = results.filter((r) => r.verdict !== "not-applicable");
  if (ran.length < 2 || ran.some((r) => r.verdict !== "fail" || (r.failedAtStep ?? 0) > 0)) return undefined;
  const causes = new Set(ran.map((r) => normalised(summaryOf(r.reason))));
  if (causes.size !== 1) return undefined;
  const [first] = ran;
  if (!first) return undefined;
  return `every one of the ${ran.length} scenarios that ran failed at its first step the same way, so no rule could be judged: ${first.failure?.step ? `${first.failure.step}: ` : ""}${summaryOf(first.reason)}`;
}
