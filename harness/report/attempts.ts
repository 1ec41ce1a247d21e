import type { Envelope } from "@cucumber/messages";
import { scenarioKey } from "../run/feature-catalogue.js";
import { shellWord } from "../text/shell-word.js";

/** One try of a scenario under --retries: its seed, and why it failed if it did. */
export interface Attempt {
  /** 1 for the first try. */
  attempt: number;
  seed: number | undefined;
  /** A retried attempt failed; the last one's verdict is the scenario's. */
  failed: boolean;
  /** The failed step's message, its first line. */
  message?: string;
}

/** The seed steps/support.ts attaches at each attempt's start. */
const SEED_ATTACHMENT = /^seed (\d+) \(run seed /;

/**
 * Every attempt of each scenario that cucumber ran more than once (--retries), by `uri:name`, in
 * order. A scenario tried once is not listed: its result is the whole story.
 */
export const readAttempts = (envelopes: readonly Envelope[]): Map<string, Attempt[]> => new Map([...readTries(envelopes)].filter(([, tries]) => tries.length > 1));

/** Every finished attempt of every scenario, by `uri:name`, in order: its seed, and whether it failed. */
export function readTries(envelopes: readonly Envelope[]): Map<string, Attempt[]> {
  const pickles = new Map<string, { uri: string; name: string }>();
  const testCases = new Map<string, string>();
  const started = new Map<string, { key: string; attempt: Attempt }>();
  const byScenario = new Map<string, Attempt[]>();
  for (const e of envelopes) {
    if (e.pickle) pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) testCases.set(e.testCase.id, e.testCase.pickleId);
    if (e.testCaseStarted) {
      const pickle = pickles.get(testCases.get(e.testCaseStarted.testCaseId) ?? "");
      if (pickle) started.set(e.testCaseStarted.id, { key: scenarioKey(pickle), attempt: { attempt: e.testCaseStarted.attempt + 1, seed: undefined, failed: false } });
    }
    const startedId = e.attachment?.testCaseStartedId;
    const seed = startedId && e.attachment && SEED_ATTACHMENT.exec(e.attachment.body);
    if (startedId && seed) {
      const s = started.get(startedId);
      if (s && s.attempt.seed === undefined) s.attempt.seed = Number(seed[1]);
    }
    const step = e.testStepFinished;
    if (step && step.testStepResult.status === "FAILED") {
      const s = started.get(step.testCaseStartedId);
      if (s && s.attempt.message === undefined) s.attempt.message = (step.testStepResult.message ?? "").split("\n")[0];
    }
    const finished = e.testCaseFinished;
    if (finished) {
      const s = started.get(finished.testCaseStartedId);
      if (!s) continue;
      s.attempt.failed = finished.willBeRetried || s.attempt.message !== undefined;
      byScenario.set(s.key, [...(byScenario.get(s.key) ?? []), s.attempt]);
    }
  }
  return byScenario;
}

/** The command that runs one attempt of a scenario again, alone, on that attempt's seed. */
export function replayCommand(at: { uri: string; line: number | undefined }, runSeed: number, seed: number | undefined, brokerArgs: readonly string[]): string {
  const place = at.line === undefined ? at.uri : `${at.uri}:${at.line}`;
  return ["lomi-conformance", place, "--seed", String(runSeed), ...(seed === undefined ? [] : ["--scenario-seed", String(seed)]), ...brokerArgs].map(shellWord).join(" ");
}
