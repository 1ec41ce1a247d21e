import { loadRules, RULE_TAG } from "../rules.js";
import type { Pickle, TestStep } from "@cucumber/messages";
import { blameOf, stepRules, type NothingJudged } from "./step-blame.js";
import { boundedText } from "../text/bounded-json.js";
import { explainFailure, type FailureExplanation } from "./failure-context.js";
import { worstStep, type MessageCollector, type TestCaseAttempt } from "./message-collector.js";
import { findingsOf } from "./scenario-findings.js";

let known: ReadonlySet<string> | undefined;
/** The rule IDs of docs/rules.json: a failure naming another is blamed as one that names none. */
const knownRules = (): ReadonlySet<string> => (known ??= new Set(loadRules().rules.map((r) => r.id)));

export type ScenarioVerdict = "pass" | "fail" | "not-applicable";

/** The status of a scenario its run did not finish (stopped, or its worker died): not applicable, its reason says why; rules read it "not run". */
export const NOT_RUN = "NOT RUN";

/** A scenario the run did not finish, NOT RUN with why: judged neither way (never a pass, never a failure). */
export const notRunResult = (s: { name: string; uri: string; line: number; tags: string[] }, why: string): ScenarioResult => ({
  name: s.name,
  uri: s.uri,
  line: s.line,
  tags: s.tags,
  verdict: "not-applicable",
  status: NOT_RUN,
  reason: why,
  durationMs: 0,
});

export interface ScenarioResult {
  name: string;
  uri: string;
  line: number | undefined;
  tags: string[];
  verdict: ScenarioVerdict;
  /** Cucumber's worst step status (PASSED, FAILED, UNDEFINED, ...). */
  status: string;
  /** Why it failed or could not apply. */
  reason: string | undefined;
  durationMs: number;
  /** For a failure: the step, the request and reply, the ledger. */
  failure?: FailureExplanation;
  /** Where the step that decided the verdict is written ("features/x.feature:12"), when a step did. */
  stepAt?: string;
  /** For a failure: which step failed, counted from 0 with the Background's (-1: a Before hook). */
  failedAtStep?: number;
  /** For a failure: the rules the failed step checks (docs/writing-scenarios.md, "# checks"). */
  blame?: string[];
  /** For a failure: the cited rules it does not fail, none of them judged by this scenario. */
  unfinished?: string[];
  /** For a failure: cited rules whose own `# checks` steps had all run and held before it (said, never a pass). */
  held?: string[];
  /** For a failure that fails no rule: why (no answer in time, an answer no rule names, a step that only prepared the scenario). */
  nothingJudged?: NothingJudged;
  /** Set when the suite itself is wrong (an undefined or ambiguous step): exit 2, never a broker verdict. */
  configProblem?: string;
  /** The harness's own failure that stopped the scenario: judged neither way, the run exits 2. */
  harnessFault?: string;
  /** Oracles that failed on its history (the harness's fault, the run exits 2): each "ID: error"; the scenario's verdict stands on the rest. */
  oraclesUnknown?: string[];
  /** How many times the oracles judged each rule in its history. */
  oracleJudged?: Record<string, number>;
}

/** Where a failure found by the oracles alone stopped the scenario. */
export const AFTER_THE_STEPS = "After the last step: the oracles judged the scenario's whole history";

/** A failure message is kept whole up to this: beyond, it is the broker's reply quoted at length. */
const MAX_REASON = 20_000;
/** Cucumber's own message when a step outlives its timeout (as the message stream gives it, "Error: " first). */
const CUCUMBER_TIMEOUT = /^(Error: )?function timed out, ensure the promise resolves within/;

/** A failure message without the stack trace cucumber appends: the report is for the broker's authors. */
const withoutStack = (message: string) =>
  message
    .split("\n")
    .filter((l) => !/^\s+at /.test(l))
    .join("\n")
    .trim();

/** A failure's blame with the oracles' findings added: they fail the rules they break, whatever the steps found. */
function withOracleRules(step: ReturnType<typeof blameOf> | undefined, cited: readonly string[], oracleRules: readonly string[]): ReturnType<typeof blameOf> {
  const blame = [...new Set([...(step?.blame ?? []), ...oracleRules])];
  const { nothingJudged: _, ...rest } = step ?? { blame: [], unfinished: [], held: [] };
  return { ...rest, blame, unfinished: cited.filter((id) => !blame.includes(id)) };
}

/** Each scenario of a collected message stream with one verdict, from its last attempt. Skipped without a reason is a failure. */
export function scenarioResults(run: MessageCollector): ScenarioResult[] {
  return run.lastAttempts().map((a) => judgeScenario(a, run));
}

/** A scenario's verdict from its last attempt: why it failed, where, and which rules that fails (docs/writing-scenarios.md). */
function judgeScenario(a: TestCaseAttempt, run: MessageCollector): ScenarioResult {
  const { pickle, testCase } = a;
  const s = findingsOf(a);
  const { status: worst, message, testStepId: failedStepId } = worstStep(a);
  const ms = [...a.stepResults.values()].reduce((sum, r) => sum + Number(r.duration.seconds) * 1000 + r.duration.nanos / 1e6, 0);
  const verdict: ScenarioVerdict = worst === "PASSED" ? "pass" : (worst === "SKIPPED" && s.notApplicable) || s.harnessFault ? "not-applicable" : "fail";
  // Why a failed scenario failed (a harness fault is never a failure).
  const failedBecause =
    message !== undefined
      ? boundedText(withoutStack(message), MAX_REASON)
      : worst === "SKIPPED"
        ? "skipped without a not-applicable reason"
        : `step ${worst.toLowerCase()}`;
  const reason =
    s.harnessFault !== undefined
      ? `harness error, the broker is not judged: ${s.harnessFault}`
      : verdict === "pass"
        ? undefined
        : verdict === "not-applicable"
          ? s.notApplicable
          : failedBecause;
  const failedStep = testCase.testSteps.find((t) => t.id === failedStepId);
  const step = verdict === "pass" ? undefined : stepOf(failedStep, pickle, run);
  // The After hook failed on the oracles alone: say so, not "a hook".
  const stepText = step?.at === undefined && s.oracles.length > 0 ? AFTER_THE_STEPS : step?.text;
  const cited = pickle.tags.flatMap((t) => RULE_TAG.exec(t.name)?.[1] ?? []);
  const checks = stepRules(
    run.commentsOf(pickle.uri),
    run.lineOf(pickle.astNodeIds[0]) ?? 0,
    pickle.steps.map((p) => ({ line: run.lineOf(p.astNodeIds[0]) ?? 0, type: p.type })),
    cited,
  );
  const misnamed = checks.problems[0] && { at: `${pickle.uri}:${checks.problems[0].line}`, problem: checks.problems[0].problem };
  const broken = ["UNDEFINED", "AMBIGUOUS"].includes(worst) ? `${worst.toLowerCase()} step "${step?.text ?? "?"}"` : misnamed?.problem;
  const failedAt = pickle.steps.findIndex((p) => p.id === failedStep?.pickleStepId);
  const named = (failedStepId === undefined ? [] : (s.blame.get(failedStepId) ?? [])).filter((id) => knownRules().has(id));
  // No answer in time (a call's --timeout-ms, or cucumber's own step timeout) blames no rule: a slow broker is judged on its rules, never on a clock.
  const unjudged = failedStepId === undefined ? undefined : CUCUMBER_TIMEOUT.test(message ?? "") ? "no-answer" : s.unjudged.get(failedStepId);
  // An oracle's finding fails the rules it breaks, whichever step (or none) failed.
  const oracleRules = [...new Set(s.oracles.flatMap((o) => o.rules))].filter((id) => knownRules().has(id));
  // A step whose check names no rule, in a scenario whose history an oracle found broken, met that
  // defect: the finding is blamed, never the rules the step checks. A check that names its rule keeps it.
  const explained = oracleRules.length > 0 && named.length === 0 && unjudged !== "no-answer";
  const stepBlame =
    verdict === "fail" && failedAt >= 0
      ? blameOf(checks.rules, checks.explicit, failedAt, cited, explained ? oracleRules : named, explained ? undefined : unjudged)
      : undefined;
  // A finding that names no rule still keeps the scenario's rules from passing: they are not judged.
  const blamed =
    verdict !== "fail" || (oracleRules.length === 0 && (stepBlame !== undefined || s.oracles.length === 0))
      ? stepBlame
      : withOracleRules(stepBlame, cited, oracleRules);
  return {
    name: pickle.name,
    uri: pickle.uri,
    line: run.scenarioLine(pickle),
    tags: pickle.tags.map((t) => t.name),
    verdict,
    status: worst,
    reason,
    durationMs: Math.round(ms),
    ...(misnamed && !["UNDEFINED", "AMBIGUOUS"].includes(worst) ? { stepAt: misnamed.at } : step?.at ? { stepAt: step.at } : {}),
    ...(blamed ? blamed : {}),
    ...(verdict === "fail" ? { failedAtStep: failedAt >= 0 ? failedAt : -1 } : {}),
    ...(broken ? { configProblem: broken } : {}),
    ...(verdict === "fail"
      ? { failure: { ...explainFailure(stepText, failedBecause, s.context), steps: stepsOf(a, run), ...(s.oracles.length > 0 ? { oracles: s.oracles } : {}) } }
      : {}),
    ...(s.harnessFault !== undefined ? { harnessFault: s.harnessFault } : {}),
    ...(s.oraclesUnknown.length > 0 ? { oraclesUnknown: s.oraclesUnknown } : {}),
    ...(s.judged ? { oracleJudged: s.judged } : {}),
  };
}

/** The failed step as written ("Then Lomi saw 1 dispatch of ...") and where, or the hook that failed. */
function stepOf(testStep: TestStep | undefined, pickle: Pickle, run: MessageCollector): { text: string; at: string | undefined } | undefined {
  if (!testStep) return undefined;
  if (!testStep.pickleStepId) return { text: "(a Before or After hook)", at: undefined };
  const step = pickle.steps.find((p) => p.id === testStep.pickleStepId);
  if (!step) return undefined;
  return { text: run.stepText(step), at: `${pickle.uri}:${run.lineOf(step.astNodeIds[0]) ?? "?"}` };
}

/** The scenario's steps as written, each with its status (Background's included). */
const stepsOf = (a: TestCaseAttempt, run: MessageCollector): Array<{ text: string; status: string }> =>
  a.pickle.steps.map((p) => {
    const id = a.testCase.testSteps.find((t) => t.pickleStepId === p.id)?.id;
    return { text: run.stepText(p), status: (id && a.stepResults.get(id)?.status) || "SKIPPED" };
  });
