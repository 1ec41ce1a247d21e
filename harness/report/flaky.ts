import type { Attempt } from "./attempts.js";
import type { RuleReport } from "./rule-verdicts.js";
import type { ScenarioResult } from "./scenario-results.js";

const keyOf = (s: { uri: string; name: string }) => `${s.uri}:${s.name}`;

/** The scenarios that failed and then passed on a retry (--retries), by `uri:name`. */
export function flakyScenarios(results: readonly ScenarioResult[], attempts: ReadonlyMap<string, readonly Attempt[]>): Set<string> {
  return new Set(results.filter((r) => r.verdict === "pass" && (attempts.get(keyOf(r)) ?? []).some((a) => a.failed)).map(keyOf));
}

/** The command that replays one attempt of a scenario alone (attempts.ts replayCommand, with the run's seed and broker). */
export type Replay = (s: { uri: string; line: number | undefined }, seed: number | undefined) => string;

/** "attempt 1 failed (seed 123: lomi-conformance …), attempt 2 passed (seed 456)": what a report says of a flaky scenario. */
const attemptsText = (s: { uri: string; line: number | undefined }, tries: readonly Attempt[] | undefined, replay: Replay) =>
  (tries ?? [])
    .map((a) => `attempt ${a.attempt} ${a.failed ? "failed" : "passed"} (seed ${a.seed ?? "?"}${a.failed ? `; replay: ${replay(s, a.seed)}` : ""})`)
    .join(", ");

/**
 * The rules with their flaky scenarios marked: a rule that would pass but for a scenario that passed
 * only on a retry is flaky, its own verdict (a broker that sometimes breaks a rule breaks it).
 */
export function withFlakyRules(
  rules: readonly RuleReport[],
  flaky: ReadonlySet<string>,
  attempts: ReadonlyMap<string, readonly Attempt[]>,
  replay: Replay,
  repeated = false,
): RuleReport[] {
  if (flaky.size === 0) return [...rules];
  const how = repeated ? "failed in some repetitions (--repeat) and passed in others" : "failed, then passed on a retry";
  return rules.map((r) => {
    const scenarios = r.scenarios.map((s) =>
      s.verdict === "pass" && flaky.has(keyOf(s))
        ? { ...s, verdict: "flaky" as const, reason: `${how}: ${attemptsText(s, attempts.get(keyOf(s)), replay)}` }
        : s,
    );
    const marked = scenarios.filter((s) => s.verdict === "flaky");
    const [firstMarked] = marked;
    if (!firstMarked) return r;
    if (r.verdict !== "pass") return { ...r, scenarios };
    return { ...r, scenarios, verdict: "flaky" as const, reason: `${marked.length} of ${scenarios.length} scenario(s) ${how}: ${firstMarked.name}` };
  });
}

/** A flaky rule the gate lets pass: under --flaky-ok, or when each of its flaky scenarios is one the baseline knows as flaky (within its date). */
const excused = (r: RuleReport, flakyOk: boolean, known: ReadonlySet<string>) =>
  r.verdict === "flaky" && (flakyOk || r.scenarios.filter((s) => s.verdict === "flaky").every((s) => known.has(s.name)));

/** The rules as the gate judges them: flaky fails a rule at the level, unless excused (--flaky-ok, or known-flaky baseline entries). */
export const gatedRules = (rules: readonly RuleReport[], flakyOk: boolean, known: ReadonlySet<string> = new Set()): RuleReport[] =>
  rules.map((r) => (excused(r, flakyOk, known) ? { ...r, verdict: "pass" as const } : r));

/** Each flaky rule the gate lets pass is still said, with why. */
export const flakyWarnings = (rules: readonly RuleReport[], flakyOk: boolean, known: ReadonlySet<string> = new Set()): string[] =>
  rules
    .filter((r) => excused(r, flakyOk, known))
    .map(
      (r) =>
        `${r.id} is flaky (${r.reason}); ${flakyOk ? "--flaky-ok lets it pass the gate" : "the baseline knows its flaky scenarios as flaky, within their dates"}`,
    );
