import { loadRules, RULE_TAG } from "../rules.js";
import type * as messages from "@cucumber/messages";
import { BLAME_MEDIA_TYPE, blameAttachment, ORACLE_MEDIA_TYPE, ORACLE_UNKNOWN_MEDIA_TYPE, oracleAttachment, oracleUnknownAttachment, parseAttachment, TRIGGERS_MEDIA_TYPE, triggersAttachment, VERDICT_MEDIA_TYPE, verdictAttachment, type OracleFailure } from "./attachments.js";
import { blameOf, stepRules, type Comment, type NothingJudged } from "./step-blame.js";
import { z } from "zod";
import { boundedText } from "../text/bounded-json.js";
import { explainFailure, FAILURE_CONTEXT_FILE, type FailureExplanation } from "./failure-context.js";
import { messageOf } from "../../protocol/errors.js";

let known: ReadonlySet<string> | undefined;
/** The rule IDs of docs/rules.json: a failure naming another is blamed as one that names none. */
const knownRules = (): ReadonlySet<string> => (known ??= new Set(loadRules().rules.map((r) => r.id)));

export type ScenarioVerdict = "pass" | "fail" | "not-applicable";

/** The status of a scenario its run did not finish (stopped, or its worker died): not applicable, its reason says why; rules read it "not run". */
export const NOT_RUN = "NOT RUN";

/** A scenario the run did not finish, NOT RUN with why: judged neither way (never a pass, never a failure). */
export const notRunResult = (s: { name: string; uri: string; line: number; tags: string[] }, why: string): ScenarioResult => ({ name: s.name, uri: s.uri, line: s.line, tags: s.tags, verdict: "not-applicable", status: NOT_RUN, reason: why, durationMs: 0 });

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

type Envelope = messages.Envelope;
type FeatureChild = messages.FeatureChild | messages.RuleChild;

interface Running {
  pickle: messages.Pickle;
  testCase: messages.TestCase;
  worst: string;
  message: string | undefined;
  failedStepId: string | undefined;
  ms: number;
  na: string | undefined;
  harnessFault: string | undefined;
  oraclesUnknown: string[];
  /** The failure context as attached (read loosely by explainFailure), or why it could not be read. */
  context: unknown;
  /** The rules each step's (or hook's) violation named, by test step. */
  blame: Map<string, string[]>;
  /** The test steps whose failure judges no rule, and why (no answer in time, an answer no rule names). */
  unjudged: Map<string, "no-answer" | "unexpected-answer">;
  /** The oracles the scenario's history broke. */
  oracles: OracleFailure[];
  /** How many times the oracles judged each rule in its history. */
  judged: Record<string, number> | undefined;
  /** Each test step's status, by test step. */
  statuses: Map<string, string>;
  finished: boolean;
}

/** The attachment prefix under which a scenario reports the broker's serverInfo (once per worker). */
export const BROKER_IDENTITY = "broker-identity: ";

/** Where a failure found by the oracles alone stopped the scenario. */
export const AFTER_THE_STEPS = "After the last step: the oracles judged the scenario's whole history";

/** A failure message is kept whole up to this: beyond, it is the broker's reply quoted at length. */
const MAX_REASON = 20_000;
/** Cucumber's own message when a step outlives its timeout (as the message stream gives it, "Error: " first). */
const CUCUMBER_TIMEOUT = /^(Error: )?function timed out, ensure the promise resolves within/;
const SEVERITY = ["UNKNOWN", "PASSED", "SKIPPED", "PENDING", "UNDEFINED", "AMBIGUOUS", "FAILED"];

function gherkinIndex(children: readonly FeatureChild[], lines: Map<string, number>, keywords: Map<string, string>): void {
  for (const child of children) {
    for (const step of [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])]) {
      keywords.set(step.id, step.keyword);
      lines.set(step.id, step.location.line);
    }
    const s = child.scenario;
    if (s) {
      lines.set(s.id, s.location.line);
      for (const ex of s.examples ?? []) for (const row of ex.tableBody) lines.set(row.id, row.location.line);
    }
    if ("rule" in child && child.rule) gherkinIndex(child.rule.children, lines, keywords);
  }
}

/** A failure message without the stack trace cucumber appends: the report is for the broker's authors. */
const withoutStack = (message: string) =>
  message
    .split("\n")
    .filter((l) => !/^\s+at /.test(l))
    .join("\n")
    .trim();

/** An attachment's JSON, or a marker that it was not JSON: the scenario keeps its verdict either way. */
function parsedOrLost(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    return { unreadable: messageOf(error) };
  }
}

const brokerIdentitySchema = z.object({ name: z.string(), version: z.string() });

/** The broker's name and version as it gave them in its initialize answer, if any scenario reached it and they read as such. */
export function readBrokerIdentity(envelopes: readonly Envelope[]): { name: string; version: string } | undefined {
  const found = envelopes
    .map((e) => e.attachment)
    .find((a) => a?.body.startsWith(BROKER_IDENTITY));
  const identity = found && brokerIdentitySchema.safeParse(parsedOrLost(found.body.slice(BROKER_IDENTITY.length)));
  return identity?.success ? identity.data : undefined;
}

/** What one attachment tells about its scenario, by media type; an attachment that does not parse tells nothing. */
function readAttachment(a: messages.Attachment, s: Running): void {
  if (a.fileName === FAILURE_CONTEXT_FILE) s.context = parsedOrLost(a.body);
  if (a.mediaType === VERDICT_MEDIA_TYPE) {
    const v = parseAttachment(verdictAttachment, a.body);
    if (v?.kind === "not-applicable") s.na = v.reason;
    if (v?.kind === "harness-fault") s.harnessFault = v.reason;
  }
  if (a.mediaType === BLAME_MEDIA_TYPE && a.testStepId) {
    const b = parseAttachment(blameAttachment, a.body);
    if (b) s.blame.set(a.testStepId, b.rules);
    if (b && "unjudged" in b) s.unjudged.set(a.testStepId, b.unjudged);
  }
  if (a.mediaType === TRIGGERS_MEDIA_TYPE) s.judged = parseAttachment(triggersAttachment, a.body);
  if (a.mediaType === ORACLE_MEDIA_TYPE) s.oracles.push(...(parseAttachment(oracleAttachment, a.body) ?? []));
  if (a.mediaType === ORACLE_UNKNOWN_MEDIA_TYPE) s.oraclesUnknown.push(...(parseAttachment(oracleUnknownAttachment, a.body) ?? []).map((u) => `${u.id} (${u.rules.join(", ")}): ${u.error}`));
}

/** A failure's blame with the oracles' findings added: they fail the rules they break, whatever the steps found. */
function withOracleRules(step: ReturnType<typeof blameOf> | undefined, cited: readonly string[], oracleRules: readonly string[]): ReturnType<typeof blameOf> {
  const blame = [...new Set([...(step?.blame ?? []), ...oracleRules])];
  const { nothingJudged: _, ...rest } = step ?? { blame: [], unfinished: [], held: [] };
  return { ...rest, blame, unfinished: cited.filter((id) => !blame.includes(id)) };
}

/** Reads cucumber's message stream and gives each scenario one verdict. Skipped without a reason is a failure. */
export function readScenarioResults(envelopes: readonly Envelope[]): ScenarioResult[] {
  const pickles = new Map<string, NonNullable<Envelope["pickle"]>>();
  const lines = new Map<string, number>();
  const keywords = new Map<string, string>();
  const comments = new Map<string, Comment[]>();
  const testCases = new Map<string, NonNullable<Envelope["testCase"]>>();
  const started = new Map<string, Running>();
  for (const e of envelopes) {
    if (e.gherkinDocument?.feature) gherkinIndex(e.gherkinDocument.feature.children, lines, keywords);
    if (e.gherkinDocument?.uri) comments.set(e.gherkinDocument.uri, e.gherkinDocument.comments.map((c) => ({ line: c.location.line, text: c.text })));
    if (e.pickle) pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) testCases.set(e.testCase.id, e.testCase);
    if (e.testCaseStarted) {
      // Cucumber announces a test case and its pickle before the test case starts.
      const testCase = testCases.get(e.testCaseStarted.testCaseId);
      const pickle = testCase && pickles.get(testCase.pickleId);
      if (testCase && pickle) started.set(e.testCaseStarted.id, {
        pickle,
        testCase,
        worst: "UNKNOWN",
        message: undefined,
        failedStepId: undefined,
        ms: 0,
        na: undefined,
        harnessFault: undefined,
        oraclesUnknown: [],
        context: undefined,
        blame: new Map(),
        unjudged: new Map(),
        oracles: [],
        judged: undefined,
        statuses: new Map(),
        finished: false,
      });
    }
    if (e.testStepFinished) {
      const s = started.get(e.testStepFinished.testCaseStartedId);
      const r = e.testStepFinished.testStepResult;
      if (s) {
        s.statuses.set(e.testStepFinished.testStepId, r.status);
        s.ms += Number(r.duration.seconds) * 1000 + r.duration.nanos / 1e6;
        if (SEVERITY.indexOf(r.status) > SEVERITY.indexOf(s.worst)) {
          s.worst = r.status;
          s.message = r.message;
          s.failedStepId = e.testStepFinished.testStepId;
        }
      }
    }
    const a = e.attachment;
    const s = a?.testCaseStartedId ? started.get(a.testCaseStartedId) : undefined;
    if (a && s) readAttachment(a, s);
    if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) {
      const f = started.get(e.testCaseFinished.testCaseStartedId);
      if (f) f.finished = true;
    }
  }

  /** The failed step as written ("Then Lomi saw 1 dispatch of ...") and where, or the hook that failed. */
  const stepOf = (s: Running): { text: string; at: string | undefined } | undefined => {
    const testStep = s.testCase.testSteps.find((t) => t.id === s.failedStepId);
    if (!testStep) return undefined;
    if (!testStep.pickleStepId) return { text: "(a Before or After hook)", at: undefined };
    const step = s.pickle.steps.find((p) => p.id === testStep.pickleStepId);
    if (!step) return undefined;
    const node = step.astNodeIds[0] ?? "";
    return { text: `${(keywords.get(node) ?? "").trim()} ${step.text}`.trim(), at: `${s.pickle.uri}:${lines.get(node) ?? "?"}` };
  };

  /** The scenario's steps as written, each with its status (Background's included). */
  const stepsOf = (s: Running): Array<{ text: string; status: string }> => {
    return s.pickle.steps.map((p) => {
      const id = s.testCase.testSteps.find((t) => t.pickleStepId === p.id)?.id;
      return { text: `${(keywords.get(p.astNodeIds[0] ?? "") ?? "").trim()} ${p.text}`.trim(), status: (id && s.statuses.get(id)) || "SKIPPED" };
    });
  };

  return [...started.values()]
    .filter((s) => s.finished)
    .map((s) => {
      const { pickle } = s;
      const verdict: ScenarioVerdict = s.worst === "PASSED" ? "pass" : (s.worst === "SKIPPED" && s.na) || s.harnessFault ? "not-applicable" : "fail";
      // Why a failed scenario failed (a harness fault is never a failure).
      const failedBecause = s.message !== undefined ? boundedText(withoutStack(s.message), MAX_REASON) : s.worst === "SKIPPED" ? "skipped without a not-applicable reason" : `step ${s.worst.toLowerCase()}`;
      const reason = s.harnessFault !== undefined ? `harness error, the broker is not judged: ${s.harnessFault}` : verdict === "pass" ? undefined : verdict === "not-applicable" ? s.na : failedBecause;
      const step = verdict === "pass" ? undefined : stepOf(s);
      // The After hook failed on the oracles alone: say so, not "a hook".
      const stepText = step?.at === undefined && s.oracles.length > 0 ? AFTER_THE_STEPS : step?.text;
      const cited = pickle.tags.flatMap((t) => RULE_TAG.exec(t.name)?.[1] ?? []);
      const checks = stepRules(
        comments.get(pickle.uri) ?? [],
        lines.get(pickle.astNodeIds[0] ?? "") ?? 0,
        pickle.steps.map((p) => ({ line: lines.get(p.astNodeIds[0] ?? "") ?? 0, type: p.type })),
        cited,
      );
      const misnamed = checks.problems[0] && { at: `${pickle.uri}:${checks.problems[0].line}`, problem: checks.problems[0].problem };
      const broken = ["UNDEFINED", "AMBIGUOUS"].includes(s.worst) ? `${s.worst.toLowerCase()} step "${step?.text ?? "?"}"` : misnamed?.problem;
      const failedAt = pickle.steps.findIndex((p) => p.id === s.testCase.testSteps.find((t) => t.id === s.failedStepId)?.pickleStepId);
      const named = (s.failedStepId === undefined ? [] : (s.blame.get(s.failedStepId) ?? [])).filter((id) => knownRules().has(id));
      // No answer in time (a call's --timeout-ms, or cucumber's own step timeout) blames no rule: a slow broker is judged on its rules, never on a clock.
      const unjudged = s.failedStepId === undefined ? undefined : CUCUMBER_TIMEOUT.test(s.message ?? "") ? "no-answer" : s.unjudged.get(s.failedStepId);
      // An oracle's finding fails the rules it breaks, whichever step (or none) failed.
      const oracleRules = [...new Set(s.oracles.flatMap((o) => o.rules))].filter((id) => knownRules().has(id));
      // A step whose check names no rule, in a scenario whose history an oracle found broken, met that
      // defect: the finding is blamed, never the rules the step checks. A check that names its rule keeps it.
      const explained = oracleRules.length > 0 && named.length === 0 && unjudged !== "no-answer";
      const stepBlame = verdict === "fail" && failedAt >= 0 ? blameOf(checks.rules, checks.explicit, failedAt, cited, explained ? oracleRules : named, explained ? undefined : unjudged) : undefined;
      // A finding that names no rule still keeps the scenario's rules from passing: they are not judged.
      const blamed =
        verdict !== "fail" || (oracleRules.length === 0 && (stepBlame !== undefined || s.oracles.length === 0))
          ? stepBlame
          : withOracleRules(stepBlame, cited, oracleRules);
      return {
        name: pickle.name,
        uri: pickle.uri,
        line: lines.get(pickle.astNodeIds.at(-1) ?? ""),
        tags: pickle.tags.map((t) => t.name),
        verdict,
        status: s.worst,
        reason,
        durationMs: Math.round(s.ms),
        ...(misnamed && !["UNDEFINED", "AMBIGUOUS"].includes(s.worst) ? { stepAt: misnamed.at } : step?.at ? { stepAt: step.at } : {}),
        ...(blamed ? blamed : {}),
        ...(verdict === "fail" ? { failedAtStep: failedAt >= 0 ? failedAt : -1 } : {}),
        ...(broken ? { configProblem: broken } : {}),
        ...(verdict === "fail" ? { failure: { ...explainFailure(stepText, failedBecause, s.context), steps: stepsOf(s), ...(s.oracles.length > 0 ? { oracles: s.oracles } : {}) } } : {}),
        ...(s.harnessFault !== undefined ? { harnessFault: s.harnessFault } : {}),
        ...(s.oraclesUnknown.length > 0 ? { oraclesUnknown: s.oraclesUnknown } : {}),
        ...(s.judged ? { oracleJudged: s.judged } : {}),
      };
    });
}
