import type { Attempt } from "./attempts.js";
import type { RuleReport } from "./rule-verdicts.js";
import type { ScenarioResult } from "./scenario-results.js";
import { scenarioKey } from "../run/feature-catalogue.js";

/** One repetition of a --repeat run, as its message stream tells it: each scenario's result, and its tries (seeds). */
export interface Repetition {
  results: readonly ScenarioResult[];
  tries: ReadonlyMap<string, readonly Attempt[]>;
}

/**
 * --repeat N: one result per scenario from its N runs. Passed in some and failed in others, it is
 * flaky, as a retry that passed is (its passing result stands, every repetition is an attempt with
 * its seed and replay line); failed in every one, it fails (its first failure stands, each
 * repetition listed); otherwise its first result stands, and a scenario no repetition failed has no
 * attempts to list.
 */
export function combineRepetitions(repetitions: readonly Repetition[]): { results: ScenarioResult[]; attempts: Map<string, Attempt[]> } {
  const attempts = new Map<string, Attempt[]>();
  const byKey = repetitions.map((r) => new Map(r.results.map((x) => [scenarioKey(x), x])));
  const results = (repetitions[0]?.results ?? []).map((first) => {
    const key = scenarioKey(first);
    const runs = byKey.map((m) => m.get(key));
    if (!runs.some((x) => x?.verdict === "fail")) return first;
    attempts.set(
      key,
      runs.flatMap((x, i) =>
        x
          ? [
              {
                attempt: i + 1,
                seed: repetitions[i]!.tries.get(key)?.at(-1)?.seed,
                failed: x.verdict === "fail",
                ...(x.verdict === "fail" ? { message: (x.reason ?? "").split("\n")[0] } : {}),
              },
            ]
          : [],
      ),
    );
    return runs.find((x) => x?.verdict === "pass") ?? first;
  });
  return { results, attempts };
}

/** pass^N of a rule: of its scenarios judged in the repetitions, how many passed in every one. */
export interface PassEvery {
  runs: number;
  scenarios: number;
  passed: number;
}

/**
 * A rule's pass^N from its scenarios' repetitions: of those judged (passed or failed), how many
 * passed in every repetition (attempts list only the scenarios some repetition failed). A rule
 * none of whose scenarios was judged has none.
 */
export function passEvery(
  rule: Pick<RuleReport, "scenarios">,
  attempts: ReadonlyMap<string, readonly Attempt[]>,
  runs: number,
  results: readonly ScenarioResult[],
): PassEvery | undefined {
  const verdicts = new Map(results.map((r) => [scenarioKey(r), r.verdict]));
  const judged = [...new Set(rule.scenarios.map((s) => scenarioKey(s)))].filter((k) => verdicts.get(k) === "pass" || verdicts.get(k) === "fail");
  if (judged.length === 0) return undefined;
  const passed = judged.filter((k) => verdicts.get(k) === "pass" && !(attempts.get(k) ?? []).some((a) => a.failed)).length;
  return { runs, scenarios: judged.length, passed };
}

/** "pass^3 4/5": a rule's figure as the reports give it. */
export const passEveryText = (p: PassEvery) => `pass^${p.runs} ${p.passed}/${p.scenarios}`;
