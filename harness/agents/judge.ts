import type { History } from "../history/format.js";
import { loadRules, type AgentRule } from "../rules.js";
import type { AgentCheck, Trial } from "./agent-check.js";
import { conductsOf } from "./conduct.js";
import { admissionNotSuccess } from "./rules/admission-not-success.js";
import { commonFields } from "./rules/common-fields.js";
import { emptyPage } from "./rules/empty-page.js";
import { explicitIds } from "./rules/explicit-ids.js";
import { freshKey } from "./rules/fresh-key.js";
import { freshLayout } from "./rules/fresh-layout.js";
import { inspectsUnknown } from "./rules/inspect-unknown.js";
import { lookupProject } from "./rules/lookup-project.js";
import { lostReply } from "./rules/lost-reply.js";
import { noBypass } from "./rules/no-bypass.js";
import { monitorsInterrupted, readsUntilSettled } from "./rules/read-until-settled.js";
import { refusedEpoch } from "./rules/refused-epoch.js";
import { storeFull } from "./rules/store-full.js";

/** One check per agent rule of docs/rules.json, in its order. */
export const AGENT_CHECKS: readonly AgentCheck[] = [
  admissionNotSuccess,
  explicitIds,
  commonFields,
  readsUntilSettled,
  freshLayout,
  emptyPage,
  inspectsUnknown,
  lostReply,
  lookupProject,
  freshKey,
  noBypass,
  refusedEpoch,
  monitorsInterrupted,
  storeFull,
];

/** How often a rule's situation arose, and what the agent did each time. */
export interface TrialCounts {
  /** Times its situation arose (its triggers). */
  triggers: number;
  kept: number;
  broken: number;
  /** Times the history ended before it showed what the agent did. */
  undecided: number;
}

/**
 * One agent rule's verdict for one agent: fail when the agent broke it; pass when its situation
 * arose and the agent kept it every time it could be judged; "not exercised" when it never arose, or
 * never in a way the history could judge; unknown when the check itself failed (the kit's fault).
 */
export type AgentRuleVerdict = { rule: string; level: AgentRule["level"]; title: string; counts: TrialCounts } & (
  { verdict: "pass" } | { verdict: "fail"; breaches: Trial[] } | { verdict: "not exercised"; reason: string } | { verdict: "unknown"; error: string }
);

export interface AgentJudgement {
  name: string;
  version: string | undefined;
  label: string;
  calls: number;
  verdicts: AgentRuleVerdict[];
}

const countOf = (trials: readonly Trial[], outcome: Trial["outcome"]) => trials.filter((t) => t.outcome === outcome).length;

function verdictOf(rule: AgentRule, check: AgentCheck, trials: Trial[]): AgentRuleVerdict {
  const counts: TrialCounts = {
    triggers: trials.length,
    kept: countOf(trials, "kept"),
    broken: countOf(trials, "broken"),
    undecided: countOf(trials, "undecided"),
  };
  const base = { rule: rule.id, level: rule.level, title: rule.title, counts };
  if (counts.broken > 0) return { ...base, verdict: "fail", breaches: trials.filter((t) => t.outcome === "broken") };
  if (counts.kept > 0) return { ...base, verdict: "pass" };
  if (counts.triggers === 0) return { ...base, verdict: "not exercised", reason: check.none };
  return { ...base, verdict: "not exercised", reason: `its situation arose ${counts.triggers} time(s), none the history could judge: ${trials[0]!.message}` };
}

/**
 * Every agent of the history judged by every agent rule, apart from the broker. Pure; a check that
 * throws gives its own verdict "unknown" for that agent, and every other verdict stands.
 */
export function judgeAgents(
  history: History,
  checks: readonly AgentCheck[] = AGENT_CHECKS,
  rules: readonly AgentRule[] = loadRules().agent?.rules ?? [],
): AgentJudgement[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  return conductsOf(history).map((conduct) => ({
    name: conduct.name,
    version: conduct.version,
    label: conduct.label,
    calls: conduct.calls.length,
    verdicts: checks.map((check): AgentRuleVerdict => {
      const rule = byId.get(check.rule) ?? { id: check.rule, level: "SHOULD", title: check.rule, source: "", situation: "", kept: "", broken: "" };
      try {
        return verdictOf(rule, check, check.trials(conduct));
      } catch (error) {
        return {
          rule: rule.id,
          level: rule.level,
          title: rule.title,
          counts: { triggers: 0, kept: 0, broken: 0, undecided: 0 },
          verdict: "unknown",
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
      }
    }),
  }));
}

export const agentFailures = (j: AgentJudgement) => j.verdicts.flatMap((v) => (v.verdict === "fail" ? [v] : []));
export const agentUnknowns = (j: AgentJudgement) => j.verdicts.flatMap((v) => (v.verdict === "unknown" ? [v] : []));
