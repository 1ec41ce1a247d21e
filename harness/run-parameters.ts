import { z } from "zod";

/** What a conformance run passes to every scenario (cucumber worldParameters). */
export const runParametersSchema = z.strictObject({
  adapter: z.enum(["in-process", "command"]).default("in-process"),
  brokerCommand: z.string().optional(),
  /** The broker command honours LOMI_BROKER_FAULTS (docs/implementers.md). */
  brokerFaults: z.boolean().default(false),
  seed: z.number().int().nonnegative().default(1),
  timeoutMs: z.number().int().positive().default(10_000),
});
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
