import { z } from "zod";
import { scenarioVerdictsOf, type RunRecord } from "../report/run-record.js";

/**
 * What changed between two runs (a base branch's and a pull request's), per rule and per scenario:
 * newly failing (judged and not failing in BASE, failing in HEAD), fixed, still failing, newly not
 * judged (judged in BASE, not applicable in HEAD), flaky (failed, then passed on a retry, in HEAD).
 * A baselined failure is a failure here: the comparison says what the code did, the baseline what
 * the team expects.
 */
export const CHANGES = ["newlyFailing", "fixed", "stillFailing", "newlyNotJudged", "flaky"] as const;
export type Change = (typeof CHANGES)[number];

const itemSchema = z.object({
  /** A rule ID, or a scenario's `uri:line` as HEAD (else BASE) places it. */
  id: z.string(),
  /** The rule's level and title, or the scenario's name. */
  title: z.string(),
  level: z.string().optional(),
  base: z.string(),
  head: z.string(),
  /** HEAD's reason for a rule's verdict. */
  reason: z.string().optional(),
});
export type ComparedItem = z.infer<typeof itemSchema>;

const changesSchema = z.object(Object.fromEntries(CHANGES.map((c) => [c, z.array(itemSchema)])) as Record<Change, z.ZodArray<typeof itemSchema>>);

const sideSchema = z.object({
  reports: z.string(),
  headline: z.string(),
  verdict: z.string(),
  seed: z.number(),
  broker: z.string(),
  tags: z.string().nullable(),
  startedAt: z.string(),
});

export const comparisonSchema = z.object({
  format: z.literal("lomi-compare/1"),
  base: sideSchema,
  head: sideSchema,
  rules: changesSchema,
  scenarios: changesSchema,
  /** Why the two runs may not compare like for like (another seed, selection or broker). */
  warnings: z.array(z.string()),
  /** regressed: something newly fails (exit 1). */
  verdict: z.enum(["regressed", "no-regression"]),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** A verdict as the comparison reads it: failing, passing, judged neither way, or absent from the run. */
type Reading = "failing" | "passing" | "flaky" | "not-judged" | "absent";
function reading(verdict: string | undefined): Reading {
  if (verdict === undefined) return "absent";
  if (verdict === "fail" || verdict === "baselined") return "failing";
  if (verdict === "flaky") return "flaky";
  if (verdict === "pass") return "passing";
  return "not-judged";
}

/** The change one item underwent, if it is one the comparison reports. */
function changeOf(base: string | undefined, head: string | undefined): Change | undefined {
  const [b, h] = [reading(base), reading(head)];
  if (h === "flaky") return "flaky";
  if (h === "failing") return b === "failing" ? "stillFailing" : "newlyFailing";
  if (h === "passing") return b === "failing" || b === "flaky" ? "fixed" : undefined;
  // Absent or not selected in HEAD is not "not judged": HEAD did not try (another selection, a warning says).
  if (head === "not-applicable" && (b === "passing" || b === "failing" || b === "flaky")) return "newlyNotJudged";
  return undefined;
}

const emptyChanges = (): Record<Change, ComparedItem[]> => ({ newlyFailing: [], fixed: [], stillFailing: [], newlyNotJudged: [], flaky: [] });

const side = (run: RunRecord, reports: string) => ({
  reports,
  headline: run.headline,
  verdict: run.verdict,
  seed: run.seed,
  broker: run.broker.adapter,
  tags: run.tags ?? null,
  startedAt: run.startedAt,
});

/** Two runs judged by other rules (their digests differ) do not compare like for like: a verdict may have changed with its rule. */
function rulesWarnings(base: RunRecord, head: RunRecord): string[] {
  const [b, h] = [base.provenance, head.provenance];
  if (!b || !h) {
    const silent = [b ? [] : ["BASE"], h ? [] : ["HEAD"]].flat().join(" and ");
    return [
      `${silent} ${silent.includes(" and ") ? "do" : "does"} not say which rules judged it (a kit before provenance): the two runs may have used different rules`,
    ];
  }
  const kits = b.kit.version === h.kit.version ? "" : ` (BASE ${b.kit.name} ${b.kit.version}, HEAD ${h.kit.name} ${h.kit.version})`;
  return b.rules.digest === h.rules.digest
    ? []
    : [
        `the runs used different rules: BASE ${b.rules.digest}, HEAD ${h.rules.digest}${kits}; a rule's verdict may have changed with its wording or its scenarios`,
      ];
}

export function compareRuns(base: RunRecord, head: RunRecord, names: { base: string; head: string }): Comparison {
  const rules = emptyChanges();
  const baseRules = new Map(base.rules.map((r) => [r.id, r]));
  for (const r of head.rules) {
    const change = changeOf(baseRules.get(r.id)?.verdict, r.verdict);
    if (change)
      rules[change].push({
        id: r.id,
        title: r.title,
        level: r.level,
        base: baseRules.get(r.id)?.verdict ?? "absent",
        head: r.verdict,
        ...(r.reason ? { reason: r.reason } : {}),
      });
  }
  const scenarios = emptyChanges();
  const key = (s: { uri: string; name: string }) => `${s.uri}:${s.name}`;
  const baseScenarios = new Map(scenarioVerdictsOf(base).map((s) => [key(s), s]));
  const headScenarios = scenarioVerdictsOf(head);
  for (const s of headScenarios) {
    const before = baseScenarios.get(key(s));
    const change = changeOf(before?.verdict, s.verdict);
    if (change) scenarios[change].push({ id: `${s.uri}:${s.line ?? before?.line ?? "?"}`, title: s.name, base: before?.verdict ?? "absent", head: s.verdict });
  }
  const warnings: string[] = [];
  if (base.seed !== head.seed) warnings.push(`the runs have other seeds (BASE ${base.seed}, HEAD ${head.seed}): a difference may be the seed's`);
  if ((base.tags ?? "") !== (head.tags ?? ""))
    warnings.push(
      `the runs selected other scenarios (BASE --tags ${JSON.stringify(base.tags ?? "")}, HEAD --tags ${JSON.stringify(head.tags ?? "")}): only what both ran compares`,
    );
  const missing = [...baseScenarios.keys()].filter((k) => !headScenarios.some((s) => key(s) === k)).length;
  if (missing > 0) warnings.push(`${missing} scenario(s) of BASE did not run in HEAD: nothing is said of them`);
  if (base.broker.adapter !== head.broker.adapter) warnings.push(`the runs judged other brokers (BASE ${base.broker.adapter}, HEAD ${head.broker.adapter})`);
  warnings.push(...rulesWarnings(base, head));
  const regressed = rules.newlyFailing.length > 0 || scenarios.newlyFailing.length > 0;
  return comparisonSchema.parse({
    format: "lomi-compare/1",
    base: side(base, names.base),
    head: side(head, names.head),
    rules,
    scenarios,
    warnings,
    verdict: regressed ? "regressed" : "no-regression",
  });
}
