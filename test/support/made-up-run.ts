import assert from "node:assert/strict";
import { generateMessages } from "@cucumber/gherkin";
import { AttachmentContentEncoding, IdGenerator, SourceMediaType, TestStepResultStatus, type Envelope, type Pickle } from "@cucumber/messages";

/**
 * A cucumber message stream for a feature a test writes, in the order cucumber 12 sends it: the
 * gherkin document and pickles as @cucumber/gherkin makes them (so Backgrounds, Rules, outlines and
 * comments are as a real run's), then a test case per pickle (a Before hook, then its steps) and the
 * attempts the test describes, each step with the status given (SKIPPED past the list).
 */
/** A step status as written in a test ("FAILED"). */
type Status = keyof typeof TestStepResultStatus;

export interface MadeUpAttempt {
  /** The scenario's name (an outline's pickle as gherkin names it). */
  name: string;
  /** The steps' statuses in order, the Before hook's first; each with a message when it failed. */
  steps: Array<Status | { status: Status; message: string }>;
  attachments?: Array<{ body: string; mediaType: string }>;
  willBeRetried?: boolean;
  /** How long it took, in seconds from its start. */
  seconds?: number;
}

export const MADE_UP_URI = "features/made-up.feature";

/** A feature with a Background, a `# checks` comment, and an outline inside a Rule: where the collector's index has to look. */
export const MADE_UP_FEATURE = `Feature: made up

  Background:
    Given a broker

  @IDEM-01 @REV-01
  Scenario: one
    When the agent calls
    # checks IDEM-01
    Then it answers

  Rule: counting

    @OP-03 @slow
    Scenario Outline: two <n>
      Then it counts <n>

      Examples:
        | n |
        | 1 |
        | 2 |
`;

export function madeUpRun(feature: string, attempts: readonly MadeUpAttempt[]): Envelope[] {
  const newId = IdGenerator.incrementing();
  const parsed = generateMessages(feature, MADE_UP_URI, SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
    includeGherkinDocument: true,
    includePickles: true,
    includeSource: false,
    newId,
  });
  const pickles = parsed.flatMap((e) => (e.pickle ? [e.pickle] : []));
  const testCases = pickles.map((p: Pickle) => ({
    id: newId(),
    pickleId: p.id,
    testSteps: [{ id: newId(), hookId: "before" }, ...p.steps.map((s) => ({ id: newId(), pickleStepId: s.id }))],
  }));
  const at = (seconds: number) => ({ seconds, nanos: 0 });
  const out: Envelope[] = [...parsed, { testRunStarted: { id: "run", timestamp: at(0) } }, ...testCases.map((testCase) => ({ testCase }))];
  const tries = new Map<string, number>();
  let clock = 1;
  for (const a of attempts) {
    const pickle = pickles.find((p) => p.name === a.name);
    const testCase = testCases.find((t) => t.pickleId === pickle?.id);
    assert.ok(testCase, `no scenario "${a.name}" in the feature`);
    const id = newId();
    const attempt = tries.get(a.name) ?? 0;
    tries.set(a.name, attempt + 1);
    const started = clock;
    out.push({ testCaseStarted: { id, testCaseId: testCase.id, attempt, timestamp: at(started) } });
    for (const x of a.attachments ?? [])
      out.push({ attachment: { ...x, contentEncoding: AttachmentContentEncoding.IDENTITY, testCaseStartedId: id, testStepId: testCase.testSteps[0]!.id } });
    testCase.testSteps.forEach((step, i) => {
      const given = a.steps[i] ?? "SKIPPED";
      const result =
        typeof given === "string" ? { status: TestStepResultStatus[given] } : { status: TestStepResultStatus[given.status], message: given.message };
      out.push({
        testStepFinished: {
          testCaseStartedId: id,
          testStepId: step.id,
          testStepResult: { duration: { seconds: 0, nanos: 1_000_000 }, ...result },
          timestamp: at(started),
        },
      });
    });
    clock += a.seconds ?? 1;
    out.push({ testCaseFinished: { testCaseStartedId: id, willBeRetried: a.willBeRetried ?? false, timestamp: at(clock) } });
  }
  out.push({ testRunFinished: { success: true, testRunStartedId: "run", timestamp: at(clock) } });
  return out;
}
