import {
  getWorstTestStepResult,
  TestStepResultStatus,
  type Attachment,
  type Envelope,
  type FeatureChild,
  type Pickle,
  type PickleStep,
  type RuleChild,
  type TestCase,
  type TestRunStarted,
  type TestStepResult,
  type Timestamp,
} from "@cucumber/messages";
import type { Comment } from "./step-blame.js";

// Cucumber's message stream folded once into a typed view (cucumber-js's EventDataCollector is the
// model): the feature files' steps and comments where they are written, the pickles, the test cases,
// and each attempt of a test case with its step results and attachments. It is fed live (the
// progress formatter) or a whole messages.ndjson (the reports, merge, verify); what a scenario's
// verdict is, is judged elsewhere from this view.

/** One try of a scenario (a test case started): its steps' results and its attachments, as they came, and its end once cucumber finished it. */
export interface TestCaseAttempt {
  /** Its testCaseStarted id. */
  id: string;
  /** 0 for the first try, as cucumber counts. */
  attempt: number;
  pickle: Pickle;
  testCase: TestCase;
  startedAt: Timestamp;
  /** Each test step's result, by test step, in the order they finished. */
  stepResults: Map<string, TestStepResult>;
  attachments: Attachment[];
  /** Set when cucumber finished the attempt: whether it tries the scenario again (--retries), and when. */
  finished?: { willBeRetried: boolean; at: Timestamp };
}

/**
 * An attempt's outcome so far: its worst step status in cucumber's own order of severity (FAILED,
 * AMBIGUOUS, UNDEFINED, PENDING, SKIPPED, PASSED, UNKNOWN), and the first step of that status with its
 * message; UNKNOWN, with no step, before any step has a status.
 */
export function worstStep(a: TestCaseAttempt): { status: TestStepResultStatus; testStepId?: string; message?: string } {
  const results = [...a.stepResults.values()];
  const worst = getWorstTestStepResult(results);
  const at = worst.status === TestStepResultStatus.UNKNOWN ? -1 : results.indexOf(worst);
  return { status: worst.status, ...(at >= 0 ? { testStepId: [...a.stepResults.keys()][at], message: worst.message } : {}) };
}

export class MessageCollector {
  /** Where each Gherkin node (step, scenario, examples row) is written, and each step's keyword, by AST node id. */
  private readonly lines = new Map<string, number>();
  private readonly keywords = new Map<string, string>();
  private readonly comments = new Map<string, Comment[]>();
  readonly pickles = new Map<string, Pickle>();
  readonly testCases = new Map<string, TestCase>();
  /** Every attempt, by testCaseStarted id, in the order they started. */
  readonly attempts = new Map<string, TestCaseAttempt>();
  /** Every attachment of an attempt, in the order they came (parallel workers' interleaved), as each attempt holds its own. */
  readonly attachments: Attachment[] = [];
  runStarted: TestRunStarted | undefined;

  collect(e: Envelope): void {
    if (e.gherkinDocument) {
      if (e.gherkinDocument.feature) this.index(e.gherkinDocument.feature.children);
      if (e.gherkinDocument.uri)
        this.comments.set(
          e.gherkinDocument.uri,
          e.gherkinDocument.comments.map((c) => ({ line: c.location.line, text: c.text })),
        );
    }
    if (e.pickle) this.pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) this.testCases.set(e.testCase.id, e.testCase);
    if (e.testRunStarted) this.runStarted = e.testRunStarted;
    if (e.testCaseStarted) {
      // Cucumber announces a test case and its pickle before the test case starts.
      const { id, attempt, testCaseId, timestamp } = e.testCaseStarted;
      const testCase = this.testCases.get(testCaseId);
      const pickle = testCase && this.pickles.get(testCase.pickleId);
      if (testCase && pickle) this.attempts.set(id, { id, attempt, pickle, testCase, startedAt: timestamp, stepResults: new Map(), attachments: [] });
    }
    if (e.testStepFinished)
      this.attempts.get(e.testStepFinished.testCaseStartedId)?.stepResults.set(e.testStepFinished.testStepId, e.testStepFinished.testStepResult);
    const attachedTo = e.attachment?.testCaseStartedId === undefined ? undefined : this.attempts.get(e.attachment.testCaseStartedId);
    if (e.attachment && attachedTo) {
      attachedTo.attachments.push(e.attachment);
      this.attachments.push(e.attachment);
    }
    if (e.testCaseFinished) {
      const a = this.attempts.get(e.testCaseFinished.testCaseStartedId);
      if (a) a.finished = { willBeRetried: e.testCaseFinished.willBeRetried, at: e.testCaseFinished.timestamp };
    }
  }

  private index(children: ReadonlyArray<FeatureChild | RuleChild>): void {
    for (const child of children) {
      for (const step of [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])]) {
        this.keywords.set(step.id, step.keyword);
        this.lines.set(step.id, step.location.line);
      }
      const s = child.scenario;
      if (s) {
        this.lines.set(s.id, s.location.line);
        // A stream made by hand (a test's) may leave out an outline's examples.
        for (const ex of s.examples ?? []) for (const row of ex.tableBody) this.lines.set(row.id, row.location.line);
      }
      if ("rule" in child && child.rule) this.index(child.rule.children);
    }
  }

  /** The line a Gherkin node is written at. */
  lineOf(astNodeId: string | undefined): number | undefined {
    return this.lines.get(astNodeId ?? "");
  }

  /** A scenario's line: its examples row's, for an outline's. */
  scenarioLine(pickle: Pickle): number | undefined {
    return this.lineOf(pickle.astNodeIds.at(-1));
  }

  /** A pickle step as written: "Then Lomi saw 1 dispatch of …". */
  stepText(step: PickleStep): string {
    return `${(this.keywords.get(step.astNodeIds[0] ?? "") ?? "").trim()} ${step.text}`.trim();
  }

  /** The comments of a feature file, where each is written. */
  commentsOf(uri: string): readonly Comment[] {
    return this.comments.get(uri) ?? [];
  }

  /** Each scenario cucumber finished, by its last attempt (the one not tried again), in the order they started. */
  lastAttempts(): TestCaseAttempt[] {
    return [...this.attempts.values()].filter((a) => a.finished && !a.finished.willBeRetried);
  }
}

/** A whole message stream, folded. */
export function collectMessages(envelopes: Iterable<Envelope>): MessageCollector {
  const collector = new MessageCollector();
  for (const e of envelopes) collector.collect(e);
  return collector;
}
