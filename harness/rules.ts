import { readFileSync } from "node:fs";
import { z } from "zod";
import { kitPath } from "../protocol/kit-root.js";
import { configError } from "./harness-error.js";

export const RULES_FILE = kitPath("docs/rules.json");
export const RULE_TAG = /^@([A-Z]+-\d{2})$/;

export const ruleSchema = z.strictObject({
  id: z.string().regex(/^[A-Z]+-\d{2}$/),
  level: z.enum(["MUST", "SHOULD", "MAY"]),
  title: z.string().min(1),
  source: z.string().min(1),
  decision: z.string().optional(),
});
export type Rule = z.infer<typeof ruleSchema>;

/** A rule for the agent (the MCP client): judged from recorded traffic, by what in a history shows its situation, and it kept or broken. */
export const agentRuleSchema = ruleSchema.extend({
  id: z.string().regex(/^AGENT-\d{2}$/),
  situation: z.string().min(1),
  kept: z.string().min(1),
  broken: z.string().min(1),
});
export type AgentRule = z.infer<typeof agentRuleSchema>;

export const rulesFileSchema = z.strictObject({
  source: z.string(),
  families: z.record(z.string(), z.string()),
  /** The broker's rules: what the suite runs, teeth bites and a verdict counts. */
  rules: z.array(ruleSchema),
  /**
   * The agent's rules, apart: only the agent judgement (check, record --live) reads them, so none is
   * a scenario's, "uncovered" for the suite, or counted in a broker's totals (docs/agents.md).
   */
  agent: z.strictObject({ family: z.literal("AGENT"), title: z.string().min(1), $comment: z.string().optional(), rules: z.array(agentRuleSchema) }).optional(),
});
export type RulesFile = z.infer<typeof rulesFileSchema>;

export function loadRules(file: string = RULES_FILE): RulesFile {
  return rulesFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

export function familyOf(ruleId: string): string {
  return ruleId.slice(0, ruleId.indexOf("-"));
}

/** The rule IDs a scenario's tags cite; an ID not in the catalogue is an error where it is cited. */
export function citedRules(tags: readonly string[], known: ReadonlySet<string>): string[] {
  const cited = tags.flatMap((t) => {
    const m = RULE_TAG.exec(t);
    return m ? [m[1]!] : [];
  });
  const unknown = cited.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw configError(`Unknown rule ID(s) ${unknown.join(", ")}: every rule tag must name a rule in docs/rules.json (lomi-conformance lint names where).`);
  return cited;
}
