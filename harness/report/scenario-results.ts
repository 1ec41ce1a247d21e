import { readFileSync } from "node:fs";

export type ScenarioVerdict = "pass" | "fail" | "not-applicable";

export interface ScenarioResult {
  name: string;
  uri: string;
  line: number | undefined;
  tags: string[];
  verdict: ScenarioVerdict;
  /** Why it failed or could not apply. */
  reason: string | undefined;
  durationMs: number;
}

interface Envelope {
  pickle?: { id: string; uri: string; name: string; tags: Array<{ name: string }>; astNodeIds: string[] };
  gherkinDocument?: { feature?: { children: Array<{ scenario?: { id: string; location: { line: number }; examples?: Array<{ tableBody: Array<{ id: string; location: { line: number } }> }> } }> } };
  testCase?: { id: string; pickleId: string };
  testCaseStarted?: { id: string; testCaseId: string };
  testStepFinished?: { testCaseStartedId: string; testStepResult: { status: string; message?: string; duration: { seconds: number; nanos: number } } };
  testCaseFinished?: { testCaseStartedId: string; willBeRetried: boolean };
  attachment?: { testCaseStartedId?: string; body: string };
}

const SEVERITY = ["UNKNOWN", "PASSED", "SKIPPED", "PENDING", "UNDEFINED", "AMBIGUOUS", "FAILED"];
const NOT_APPLICABLE = "not-applicable: ";

/** Reads cucumber's message stream and gives each scenario one verdict. Skipped without a reason is a failure. */
export function readScenarioResults(messagesFile: string): ScenarioResult[] {
  const envelopes = readFileSync(messagesFile, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Envelope);
  const pickles = new Map<string, NonNullable<Envelope["pickle"]>>();
  const lines = new Map<string, number>();
  const testCases = new Map<string, string>();
  const started = new Map<string, { pickleId: string; worst: string; message: string | undefined; ms: number; na: string | undefined; finished: boolean }>();
  for (const e of envelopes) {
    for (const child of e.gherkinDocument?.feature?.children ?? []) {
      const s = child.scenario;
      if (!s) continue;
      lines.set(s.id, s.location.line);
      for (const ex of s.examples ?? []) for (const row of ex.tableBody) lines.set(row.id, row.location.line);
    }
    if (e.pickle) pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) testCases.set(e.testCase.id, e.testCase.pickleId);
    if (e.testCaseStarted) {
      started.set(e.testCaseStarted.id, { pickleId: testCases.get(e.testCaseStarted.testCaseId)!, worst: "UNKNOWN", message: undefined, ms: 0, na: undefined, finished: false });
    }
    if (e.testStepFinished) {
      const s = started.get(e.testStepFinished.testCaseStartedId);
      const r = e.testStepFinished.testStepResult;
      if (s) {
        s.ms += r.duration.seconds * 1000 + r.duration.nanos / 1e6;
        if (SEVERITY.indexOf(r.status) > SEVERITY.indexOf(s.worst)) {
          s.worst = r.status;
          s.message = r.message;
        }
      }
    }
    if (e.attachment?.testCaseStartedId && e.attachment.body.startsWith(NOT_APPLICABLE)) {
      const s = started.get(e.attachment.testCaseStartedId);
      if (s) s.na = e.attachment.body.slice(NOT_APPLICABLE.length);
    }
    if (e.testCaseFinished && !e.testCaseFinished.willBeRetried) {
      const s = started.get(e.testCaseFinished.testCaseStartedId);
      if (s) s.finished = true;
    }
  }
  return [...started.values()]
    .filter((s) => s.finished)
    .map((s) => {
      const pickle = pickles.get(s.pickleId)!;
      const verdict: ScenarioVerdict = s.worst === "PASSED" ? "pass" : s.worst === "SKIPPED" && s.na ? "not-applicable" : "fail";
      const reason =
        verdict === "pass"
          ? undefined
          : verdict === "not-applicable"
            ? s.na
            : (s.message ?? (s.worst === "SKIPPED" ? "skipped without a not-applicable reason" : `step ${s.worst.toLowerCase()}`));
      return {
        name: pickle.name,
        uri: pickle.uri,
        line: lines.get(pickle.astNodeIds.at(-1) ?? ""),
        tags: pickle.tags.map((t) => t.name),
        verdict,
        reason,
        durationMs: Math.round(s.ms),
      };
    });
}
