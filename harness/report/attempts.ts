import { scenarioKey } from "../run/feature-catalogue.js";
import { shellWord } from "../text/shell-word.js";
import type { MessageCollector } from "./message-collector.js";

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
export const retriedOf = (tries: ReadonlyMap<string, Attempt[]>): Map<string, Attempt[]> => new Map([...tries].filter(([, each]) => each.length > 1));

/** Every finished attempt of every scenario, by `uri:name`, in order: its seed, and whether it failed (was tried again, or a step failed). */
export function triesOf(run: MessageCollector): Map<string, Attempt[]> {
  const byScenario = new Map<string, Attempt[]>();
  for (const a of run.attempts.values()) {
    if (!a.finished) continue;
    const seed = a.attachments.map((x) => SEED_ATTACHMENT.exec(x.body)).find((m) => m !== null);
    const failed = [...a.stepResults.values()].find((r) => r.status === "FAILED");
    const message = failed && (failed.message ?? "").split("\n")[0];
    const key = scenarioKey(a.pickle);
    byScenario.set(key, [
      ...(byScenario.get(key) ?? []),
      {
        attempt: a.attempt + 1,
        seed: seed ? Number(seed[1]) : undefined,
        failed: a.finished.willBeRetried || message !== undefined,
        ...(message !== undefined ? { message } : {}),
      },
    ]);
  }
  return byScenario;
}

/** The command that runs one attempt of a scenario again, alone, on that attempt's seed. */
export function replayCommand(at: { uri: string; line: number | undefined }, runSeed: number, seed: number | undefined, brokerArgs: readonly string[]): string {
  const place = at.line === undefined ? at.uri : `${at.uri}:${at.line}`;
  return ["lomi-conformance", place, "--seed", String(runSeed), ...(seed === undefined ? [] : ["--scenario-seed", String(seed)]), ...brokerArgs]
    .map(shellWord)
    .join(" ");
}
