import { readFileSync } from "node:fs";
import { z } from "zod";
import { configError } from "../harness-error.js";
import { NOT_RUN, type ScenarioResult } from "./scenario-results.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

/**
 * A baseline: the failures a team expects today, so it can adopt the suite gradually. A baselined
 * failure does not fail the gate; a baselined entry that now passes does (it is stale: delete it),
 * so the list only shrinks. Entries name a rule ID or a scenario by its exact name. An entry may
 * pin what it expects (`expect`): a failure, or the rule or scenario not judged (a capability the
 * broker lacks); or mark a scenario known-flaky, with an owner and a date past which the entry
 * fails the run. `issue` links where the defect is followed.
 */
const pinned = { reason: z.string().min(1), issue: z.url().optional(), expect: z.enum(["fail", "not-judged"]).optional() };
const ruleEntry = z.strictObject({ rule: z.string().regex(/^[A-Z]+-\d{2}$/), ...pinned });
const scenarioEntry = z.strictObject({ scenario: z.string().min(1), ...pinned });
const flakyEntry = z.strictObject({
  scenario: z.string().min(1),
  reason: z.string().min(1),
  issue: z.url().optional(),
  expect: z.literal("flaky"),
  owner: z.string().min(1),
  expires: z.iso.date(),
});
export const baselineFileSchema = z.strictObject({ expectedFailures: z.array(z.union([ruleEntry, flakyEntry, scenarioEntry])) });
export type BaselineFile = z.infer<typeof baselineFileSchema>;

/** What one entry expects, and why. */
export interface BaselineEntry {
  reason: string;
  /** Absent: a failure is expected (as before pins existed); not judged here is no news. */
  expect?: "fail" | "not-judged" | "flaky";
  issue?: string;
  /** A known-flaky scenario's owner and the last day (YYYY-MM-DD) the entry holds. */
  owner?: string;
  expires?: string;
}

export interface Baseline {
  file: string | undefined;
  /** Rule ID → its entry. */
  rules: ReadonlyMap<string, BaselineEntry>;
  /** Scenario name → its entry. */
  scenarios: ReadonlyMap<string, BaselineEntry>;
}

export const NO_BASELINE: Baseline = { file: undefined, rules: new Map(), scenarios: new Map() };

/** Reads a baseline; an entry naming no known rule or scenario is a configuration error (a typo would hide nothing). */
export function loadBaseline(file: string, knownRules: ReadonlySet<string>, knownScenarios: ReadonlySet<string>): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const missing = systemCodeOf(error) === "ENOENT";
    throw configError(
      `cannot read the baseline ${file}: ${missing ? 'no such file; write one with --write-baseline FILE (docs/implementers.md, "Adopting the suite gradually")' : messageOf(error)}`,
    );
  }
  const parsed = baselineFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(
      `the baseline ${file} is not valid at ${issue?.path.join(".") || "(root)"}: ${issue?.message}. Expected {"expectedFailures": [{"rule": "IDEM-02", "reason": "...", "issue": "https://…", "expect": "fail" or "not-judged"}, {"scenario": "exact scenario name", "reason": "..."}, {"scenario": "…", "reason": "…", "expect": "flaky", "owner": "who", "expires": "YYYY-MM-DD"}]}`,
    );
  }
  for (const entry of parsed.data.expectedFailures) {
    if ("rule" in entry && !knownRules.has(entry.rule))
      throw configError(`the baseline ${file} names the rule ${entry.rule}, which docs/rules.json does not have`);
    if ("scenario" in entry && !knownScenarios.has(entry.scenario))
      throw configError(`the baseline ${file} names the scenario "${entry.scenario}", which no feature file has`);
  }
  return baselineOf(file, parsed.data);
}

/** A baseline from its file's content, as read (loadBaseline) or as a run recorded it (verify). */
export function baselineOf(file: string | undefined, data: BaselineFile): Baseline {
  const rules = new Map<string, BaselineEntry>();
  const scenarios = new Map<string, BaselineEntry>();
  for (const entry of data.expectedFailures) {
    if ("rule" in entry) {
      const { rule, ...rest } = entry;
      rules.set(rule, rest);
    } else {
      const { scenario, ...rest } = entry;
      scenarios.set(scenario, rest);
    }
  }
  return { file, rules, scenarios };
}

/** A baseline's content as its file holds it: rule entries, then scenario entries. */
export const baselineFileOf = (baseline: Baseline): BaselineFile =>
  baselineFileSchema.parse({
    expectedFailures: [...[...baseline.rules].map(([rule, e]) => ({ rule, ...e })), ...[...baseline.scenarios].map(([scenario, e]) => ({ scenario, ...e }))],
  });

/** A known-flaky entry whose last day is before the run's: it no longer excuses anything, and fails the run. */
export const expired = (entry: BaselineEntry, startedAt: string) =>
  entry.expect === "flaky" && entry.expires !== undefined && startedAt.slice(0, 10) > entry.expires;

export interface BaselineEntryReport extends BaselineEntry {
  kind: "rule" | "scenario";
  name: string;
  /**
   * expected-failure: it failed, as the baseline says; stale: every scenario it covers ran and
   * passed (fails the gate); partly-run: those of its scenarios that ran passed, not all ran (a
   * --tags run), so it stands; not-run: this run did not judge it; expected-not-judged: not judged
   * here, as the entry pins; changed: the entry pins a failure and it was not judged, or pins not
   * judged and it failed (fails the gate); known-flaky: a known-flaky scenario within its date;
   * expired: a known-flaky entry past its date (fails the gate).
   */
  status: "expected-failure" | "stale" | "partly-run" | "not-run" | "expected-not-judged" | "changed" | "known-flaky" | "expired";
}

/** What an entry says of itself wherever a report quotes it: a known-flaky entry's owner and date, the reason, the issue. */
export const entryText = (e: BaselineEntry) =>
  `${e.expect === "flaky" ? `known flaky (owner ${e.owner}, until ${e.expires}): ` : ""}${e.reason}${e.issue ? ` (${e.issue})` : ""}`;

/** The baseline as it judges this run: a known-flaky entry past its date excuses nothing (scenarioEntries reports it expired). */
export function activeBaseline(baseline: Baseline, startedAt: string): Baseline {
  const scenarios = new Map([...baseline.scenarios].filter(([, e]) => !expired(e, startedAt)));
  return scenarios.size === baseline.scenarios.size ? baseline : { ...baseline, scenarios };
}

/** Why a failed scenario was expected to fail by name; an entry that pins "not judged" expects no failure. */
export function baselinedScenario(baseline: Baseline, s: ScenarioResult): string | undefined {
  const entry = s.verdict === "fail" ? baseline.scenarios.get(s.name) : undefined;
  return entry && entry.expect !== "not-judged" ? entryText(entry) : undefined;
}

/** The known-flaky scenarios of the baseline, by name (within their dates when the baseline is the active one). */
export const knownFlaky = (baseline: Baseline): ReadonlySet<string> =>
  new Set([...baseline.scenarios].filter(([, e]) => e.expect === "flaky").map(([name]) => name));

/** The status of each scenario entry, expired ones included (`baseline` whole); rule entries are judged with the rules (rule-verdicts.ts). */
export function scenarioEntries(baseline: Baseline, results: ScenarioResult[], startedAt: string): BaselineEntryReport[] {
  return [...baseline.scenarios].map(([name, entry]) => {
    const runs = results.filter((r) => r.name === name && r.status !== NOT_RUN);
    const judged = runs.filter((r) => r.verdict !== "not-applicable");
    const failed = judged.some((r) => r.verdict === "fail");
    const status: BaselineEntryReport["status"] = expired(entry, startedAt)
      ? "expired"
      : runs.length === 0
        ? "not-run"
        : entry.expect === "flaky"
          ? "known-flaky"
          : entry.expect === "not-judged"
            ? judged.length === 0
              ? "expected-not-judged"
              : failed
                ? "changed"
                : "stale"
            : failed
              ? "expected-failure"
              : judged.length === 0
                ? entry.expect === "fail"
                  ? "changed"
                  : "not-run"
                : "stale";
    return { kind: "scenario", name, ...entry, status };
  });
}

/** Why an entry fails the gate (changed, expired), in words; undefined when it does not. */
export function entryProblem(e: BaselineEntryReport, file: string | undefined): string | undefined {
  const named = e.kind === "scenario" ? `scenario "${e.name}"` : `rule ${e.name}`;
  if (e.status === "expired")
    return `the known-flaky baseline entry for ${named} (owner ${e.owner}) expired on ${e.expires}: make it pass reliably, or renew the entry in ${file ?? "the baseline"}`;
  if (e.status !== "changed") return undefined;
  return e.expect === "not-judged"
    ? `the baseline entry for ${named} pins "not judged", and it failed: a failure the baseline does not expect`
    : `the baseline entry for ${named} pins "fail", and this run did not judge it: the failure it expects is no longer shown (update the entry in ${file ?? "the baseline"})`;
}

/** The reason --write-baseline gives each entry, for the team to replace with its own. */
export const PLACEHOLDER_REASON = "TODO: say why this fails today and when it will not";

/** A reason that is still a placeholder: the one --write-baseline writes, or one that only says TODO/FIXME/TBD. */
export const isPlaceholder = (reason: string) => reason === PLACEHOLDER_REASON || /^\s*(TODO|FIXME|TBD|XXX)\b/i.test(reason) || reason.trim().length < 3;

/** The warnings a baseline earns without failing the run: every entry whose reason is still a placeholder. */
export function baselineWarnings(baseline: Baseline): string[] {
  const entries = [
    ...[...baseline.rules].map(([name, e]) => ({ kind: "rule", name, reason: e.reason })),
    ...[...baseline.scenarios].map(([name, e]) => ({ kind: "scenario", name, reason: e.reason })),
  ];
  return entries
    .filter((e) => isPlaceholder(e.reason))
    .map(
      (e) =>
        `the baseline entry for ${e.kind} ${e.kind === "scenario" ? `"${e.name}"` : e.name} has no reason yet ("${e.reason}"): say why it fails and when it will not`,
    );
}

/** What --write-baseline writes an entry for: each failing scenario by name (narrow), or each failing rule. */
export type BaselineEntries = "scenario" | "rule";

/**
 * The baseline that makes this run's failures expected (--write-baseline), keeping the reason of an
 * entry the run's baseline already had. By scenario, one narrow defect baselines the scenarios it
 * breaks and nothing else of the rules they cite; by rule, every scenario of those rules.
 */
export function baselineFileFor(
  entries: BaselineEntries,
  rules: ReadonlyArray<{ id: string; verdict: string }>,
  results: readonly ScenarioResult[],
  baseline: Baseline,
): string {
  const failingRules = rules.filter((r) => r.verdict === "fail" || r.verdict === "baselined");
  // An entry the baseline had is kept whole (its pin, issue, owner); a new one gets the placeholder reason.
  const expectedFailures =
    entries === "rule"
      ? failingRules.map((r) => ({ rule: r.id, ...(baseline.rules.get(r.id) ?? { reason: PLACEHOLDER_REASON }) }))
      : [...new Set(results.filter((x) => x.verdict === "fail").map((x) => x.name))].map((scenario) => ({
          scenario,
          ...(baseline.scenarios.get(scenario) ?? {
            reason:
              [...baseline.rules].find(([id]) => results.some((x) => x.name === scenario && (x.blame ?? []).includes(id)))?.[1].reason ?? PLACEHOLDER_REASON,
          }),
        }));
  return `${JSON.stringify(baselineFileSchema.parse({ expectedFailures }), null, 2)}\n`;
}
