/**
 * A cucumber message stream (messages.ndjson) for scenarios a test makes up, in the shape
 * @cucumber/cucumber 12 writes: a gherkin document, a pickle, a test case, its start, one step that
 * finished with the given status and message, the attachments, its end. Enough for the report
 * pipeline (the message collector, scenarioResults) to treat it as a run.
 */
export interface MadeUpScenario {
  name: string;
  tags: string[];
  status: "PASSED" | "FAILED";
  message?: string;
  attachments?: Array<{ body: string; mediaType: string; fileName?: string }>;
}

export function messagesOf(scenarios: readonly MadeUpScenario[]): string {
  const lines: unknown[] = [];
  const at = { seconds: 0, nanos: 0 };
  scenarios.forEach((s, i) => {
    const id = (what: string) => `${what}-${i}`;
    const uri = `features/made-up-${i}.feature`;
    lines.push({
      gherkinDocument: {
        uri,
        comments: [],
        feature: {
          children: [{ scenario: { id: id("scenario"), location: { line: 3 }, steps: [{ id: id("step"), keyword: "When ", location: { line: 4 } }] } }],
        },
      },
    });
    lines.push({
      pickle: {
        id: id("pickle"),
        uri,
        name: s.name,
        tags: s.tags.map((name) => ({ name })),
        astNodeIds: [id("scenario")],
        steps: [{ id: id("pickle-step"), text: "the agent calls a tool", astNodeIds: [id("step")] }],
      },
    });
    lines.push({ testCase: { id: id("case"), pickleId: id("pickle"), testSteps: [{ id: id("test-step"), pickleStepId: id("pickle-step") }] } });
    lines.push({ testCaseStarted: { id: id("started"), testCaseId: id("case"), attempt: 0, timestamp: at } });
    for (const a of s.attachments ?? [])
      lines.push({ attachment: { ...a, contentEncoding: "IDENTITY", testCaseStartedId: id("started"), testStepId: id("test-step"), timestamp: at } });
    lines.push({
      testStepFinished: {
        testCaseStartedId: id("started"),
        testStepId: id("test-step"),
        testStepResult: { status: s.status, duration: { seconds: 0, nanos: 1_000_000 }, ...(s.message === undefined ? {} : { message: s.message }) },
        timestamp: at,
      },
    });
    lines.push({ testCaseFinished: { testCaseStartedId: id("started"), willBeRetried: false, timestamp: at } });
  });
  return lines.map((l) => `${JSON.stringify(l)}\n`).join("");
}
