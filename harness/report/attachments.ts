import { z } from "zod";
import type { HistoryRecord } from "../history/format.js";
import { failuresOf, rulesFromOracles, unknownsOf, type OracleVerdict } from "../oracles/index.js";
import { bounded } from "../text/bounded-json.js";
import { brokenRules } from "./oracle-findings.js";

// What a scenario tells the report besides its steps' statuses, as cucumber attachments with a
// media type and a schema: the rules a failure is blamed on, the oracles' violations with the
// history records that show them, and why a scenario did not apply or the harness failed it. The
// report reads these, never a rule ID written in a message.

const ruleId = z.string().regex(/^[A-Z]+-\d{2}$/);

/**
 * The rules a step's or a hook's violation is blamed on (attached where it was thrown); `unjudged`:
 * none, the broker did not answer in time or gave an answer no rule names (`noAnswer`, as earlier
 * runs wrote it, is a no-answer).
 */
export const BLAME_MEDIA_TYPE = "application/vnd.lomi.blame+json";
export const blameAttachment = z.union([
  z.strictObject({ rules: z.array(ruleId).min(1) }),
  z.strictObject({ rules: z.tuple([]), unjudged: z.enum(["no-answer", "unexpected-answer"]) }),
  z.strictObject({ rules: z.tuple([]), noAnswer: z.literal(true) }).transform(() => ({ rules: [] as [], unjudged: "no-answer" as const })),
]);
export type BlameAttachment = z.infer<typeof blameAttachment>;

/** A scenario the broker could not take part in, or that the harness's own failure stopped. */
export const VERDICT_MEDIA_TYPE = "application/vnd.lomi.verdict+json";
export const verdictAttachment = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("not-applicable"), reason: z.string() }),
  z.strictObject({ kind: z.literal("harness-fault"), reason: z.string() }),
]);
export type VerdictAttachment = z.infer<typeof verdictAttachment>;

/** The oracles a scenario's history broke: each with the rules its findings blame, its violations and the records that show them. */
export const ORACLE_MEDIA_TYPE = "application/vnd.lomi.oracles+json";

/** The oracles that failed on a scenario's history (the harness's fault): each judged nothing there, and every other verdict stands. */
export const ORACLE_UNKNOWN_MEDIA_TYPE = "application/vnd.lomi.oracle-unknown+json";
export const oracleUnknownAttachment = z.array(z.strictObject({ id: z.string(), rules: z.array(ruleId), error: z.string() }));

/** How many times the oracles judged each rule in a scenario's history (its triggers): the report sums them per rule. */
export const TRIGGERS_MEDIA_TYPE = "application/vnd.lomi.triggers+json";
export const triggersAttachment = z.record(ruleId, z.number().int().positive());

/** A line of progress a long step reports while it works (a store fill): the progress log prints it as it comes. */
export const PROGRESS_MEDIA_TYPE = "text/vnd.lomi.progress";
export const ORACLE_FILE = "lomi-oracle-violations.json";
export const oracleFailure = z.strictObject({
  id: z.string(),
  title: z.string(),
  /** What its findings blame, all of them (not only those kept for the report): never every rule the oracle lists. */
  rules: z.array(ruleId),
  violations: z.array(
    z.strictObject({ message: z.string(), rules: z.array(ruleId), records: z.array(z.strictObject({ index: z.number().int(), record: z.unknown() })) }),
  ),
});
export const oracleAttachment = z.array(oracleFailure);
export type OracleFailure = z.infer<typeof oracleFailure>;

/** Violations kept per oracle and records kept per violation: enough to see the defect, small enough for any report. */
const MAX_VIOLATIONS = 5;
const MAX_RECORDS = 6;

/** The failed oracles of a history, each violation with the records it points at (bounded for the report). */
export function oracleFailuresOf(failed: ReadonlyArray<Extract<OracleVerdict, { verdict: "fail" }>>, records: readonly HistoryRecord[]): OracleFailure[] {
  return failed.map((f) => ({
    id: f.id,
    title: f.title,
    rules: brokenRules(f.violations),
    violations: f.violations.slice(0, MAX_VIOLATIONS).map((v) => ({
      message: v.message,
      rules: v.rules,
      records: v.records.slice(0, MAX_RECORDS).map((index) => ({ index, record: bounded(records[index] ?? null) })),
    })),
  }));
}

/** An attachment's JSON parsed by its schema, or undefined: a malformed one is the harness's to report, never a broker's failure. */
export function parseAttachment<S extends z.ZodType>(schema: S, body: string): z.infer<S> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a scenario attaches of its history's judgement (steps/support.ts), and what verify derives
 * again from the history it wrote: the oracles' findings with their records, how many times each
 * rule's situation was judged, and the oracles that failed on it (the harness's fault).
 */
export function historyJudgement(verdicts: readonly OracleVerdict[], records: readonly HistoryRecord[]) {
  return {
    found: oracleFailuresOf(failuresOf(verdicts), records),
    judged: Object.fromEntries(rulesFromOracles(verdicts).flatMap((r) => (r.judged > 0 ? [[r.id, r.judged]] : []))) as Record<string, number>,
    unknown: unknownsOf(verdicts).map(({ id, rules, error }) => ({ id, rules, error })),
  };
}
