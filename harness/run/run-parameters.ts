import { z } from "zod";

const common = {
  seed: z.number().int().nonnegative().default(1),
  timeoutMs: z.number().int().positive().default(10_000),
  /** false: the steps alone judge, no oracle after them (to see what the oracles add); on by default. */
  oracles: z.boolean().optional(),
  /** Where each scenario's history (lomi-history/1) is written, one file a scenario: `lomi-conformance check` judges it again. */
  historiesDir: z.string().optional(),
  /** --scenario-seed: every scenario's first attempt takes this seed in place of the one derived from the run's (a retry's replay line). */
  replaySeed: z.number().int().nonnegative().optional(),
  /** --repeat: which run of the scenarios this is (1 for the first); each repetition after the first takes seeds of its own. */
  repetition: z.number().int().positive().optional(),
  /** How many scenarios the run starts, when one process starts them all (no --parallel): a broker command's warm spares stop there. */
  scenarios: z.number().int().nonnegative().optional(),
};

/** A broker the harness starts may honour LOMI_BROKER_FAULTS (docs/implementers.md); one already running cannot be armed. */
const faults = { brokerFaults: z.boolean().default(false) };

/** What a conformance run passes to every scenario (cucumber worldParameters); in-process when nothing is said. */
export const runParametersSchema = z.preprocess(
  (value) => ({ adapter: "in-process", ...(value as object) }),
  z.discriminatedUnion("adapter", [
    // mutant, variant: a deliberately broken broker of mutants/, or a legal variant of variants/, in place of the reference broker.
    z.strictObject({ adapter: z.literal("in-process"), mutant: z.string().optional(), variant: z.string().optional(), ...common }),
    // brokerCwd: the directory the user ran the kit from, absolute: every broker process starts there (workers run elsewhere).
    z.strictObject({ adapter: z.literal("command"), brokerCommand: z.string().min(1), brokerCwd: z.string().min(1), ...faults, ...common }),
    z.strictObject({ adapter: z.literal("url"), brokerUrl: z.url(), nativePort: z.number().int().min(1).max(65535), ...common }),
    z.strictObject({ adapter: z.literal("image"), brokerImage: z.string().min(1), ...faults, ...common }),
  ]),
);
export type RunParameters = z.infer<typeof runParametersSchema>;

/** FNV-1a: a scenario's seed comes from the run's seed and its own name, whatever the order or worker. */
export function scenarioSeed(runSeed: number, scenarioId: string): number {
  let hash = 0x811c9dc5 ^ runSeed;
  for (let i = 0; i < scenarioId.length; i++) {
    hash ^= scenarioId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The seed of a scenario's attempt: the first takes the scenario's seed (derived from the run seed,
 * or --scenario-seed), each retry (--retries) one derived from it, so a retry is a fresh try that
 * its replay line repeats exactly; a repetition after the first (--repeat) starts from a seed derived
 * from the scenario's, so each repetition is a fresh run that its replay line repeats.
 */
export function attemptSeed(
  run: { seed: number; replaySeed?: number | undefined; repetition?: number | undefined },
  scenarioId: string,
  attempt: number,
): number {
  const scenario = run.replaySeed ?? scenarioSeed(run.seed, scenarioId);
  const first = (run.repetition ?? 1) > 1 && run.replaySeed === undefined ? scenarioSeed(scenario, `repeat ${run.repetition}`) : scenario;
  return attempt === 0 ? first : scenarioSeed(first, `retry ${attempt}`);
}
