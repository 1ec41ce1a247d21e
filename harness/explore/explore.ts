import fc from "fast-check";
import type { WorldSeed } from "../../protocol/control-api.js";
import type { BrokerAdapter } from "../adapters/broker-adapter.js";
import type { RunParameters } from "../run/run-parameters.js";
import { checkHistory, failuresOf, rulesFromOracles, type OracleVerdict } from "../oracles/index.js";
import { STEP_ARBITRARIES } from "./actions.js";
import { FAULT_KINDS, historyOf, type FaultKind, type HistoryRecord } from "../history/format.js";
import { sweep } from "../driver/sweep.js";
import { initialModel } from "./model.js";
import { ExploreSystem } from "./system.js";
import { configError } from "../harness-error.js";
import { messageOf } from "../../protocol/errors.js";

export interface ExploreOptions {
  seed: number;
  runs: number;
  steps: number;
  /** Wall-clock budget in seconds: no new run starts after it (shrinking included). */
  timeBudgetS: number;
  run: RunParameters;
  world: WorldSeed;
  /** Explore only part `index` of `count` of the campaign: run i of the seed's runs goes to part i mod count. */
  part?: { index: number; count: number };
  /** Replays one case exactly: fast-check's path and the commands' replay path from a report. */
  replay?: { path: string; replayPath: string };
  /** Makes the broker of each run instead of the run parameters (a mutant in-process). */
  adapter?: () => BrokerAdapter;
  /** Called with every run's history (the determinism test compares them). */
  onHistory?: (records: HistoryRecord[]) => void;
  /** Called after every run, shrinking runs included: what a person or a CI log follows. */
  onProgress?: (progress: ExploreProgress) => void;
}

/** Where a campaign stands after a run. */
export interface ExploreProgress {
  /** Runs done, shrinking runs included. */
  executions: number;
  steps: number;
  /** Steps of the run just done. */
  runSteps: number;
  /** The run just done was one of the shrinking of a violation (no longer one of the `runs` asked for). */
  shrinking: boolean;
  /** The run just done violated an invariant. */
  violated: boolean;
}

/** A failed oracle as a violation report keeps it: its findings, without the triggers that only a verdict per rule needs. */
export type FailedOracle = Omit<Extract<OracleVerdict, { verdict: "fail" }>, "triggers">;

export interface ExploreViolation {
  invariants: FailedOracle[];
  /** The shrunk sequence of steps, one line each. */
  steps: string[];
  path: string;
  replayPath: string;
  history: HistoryRecord[];
}

export interface ExploreResult {
  seed: number;
  runs: number;
  shrinks: number;
  steps: number;
  faults: Record<FaultKind, number>;
  durationMs: number;
  interrupted: boolean;
  /** How many times the oracles judged each rule over every run of the campaign: a rule absent was not exercised. */
  exercised: Record<string, number>;
  violation: ExploreViolation | undefined;
}

/** Explores: seeded model-based runs with faults, each history judged by the checker, a violation shrunk. */
export async function explore(o: ExploreOptions): Promise<ExploreResult> {
  const started = Date.now();
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  let steps = 0;
  let executions = 0;
  let last: Omit<ExploreViolation, "path" | "replayPath"> | undefined;
  const source = `explore seed ${o.seed}`;
  // Which of the seed's runs this is, counting those left to other parts; shrinking runs are all this part's.
  let generated = -1;
  let shrinking = false;
  const exercised: Record<string, number> = {};
  const commands = fc.commands(STEP_ARBITRARIES, { maxCommands: o.steps, size: "max", ...(o.replay ? { replayPath: o.replay.replayPath } : {}) });
  // The simulator's and the broker's seeds are drawn like the steps: a case replays whole.
  const property = fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), commands, async (systemSeed, cmds) => {
    // Another part's run is skipped before anything starts: the parts' runs are disjoint, their union
    // the seed's first parts × runs, and a found case's path counts from the seed's first run, so its
    // replay line needs no --shard. A replay runs the one case it names.
    if (o.part && !o.replay && !shrinking) fc.pre(++generated % o.part.count === o.part.index - 1);
    executions++;
    const system = await ExploreSystem.start(o.run, o.world, systemSeed, source, o.adapter?.());
    let records: HistoryRecord[];
    try {
      const model = initialModel();
      try {
        await fc.asyncModelRun(() => ({ model, real: system }), cmds);
      } finally {
        steps += system.steps.length;
      }
      await sweep(system.driver, { restartToSwitch: true });
      records = await system.driver.finish();
    } finally {
      await system.stop();
    }
    for (const r of records) if (r.type === "fault") faults[r.kind]++;
    o.onHistory?.(records);
    const verdicts = checkHistory(historyOf(records));
    for (const r of rulesFromOracles(verdicts)) if (r.judged > 0) exercised[r.id] = (exercised[r.id] ?? 0) + r.judged;
    const failed = failuresOf(verdicts);
    o.onProgress?.({ executions, steps, runSteps: system.steps.length, shrinking, violated: failed.length > 0 });
    if (failed.length === 0) return;
    last = { invariants: failed, steps: system.steps, history: records };
    shrinking = true;
    throw new Error(`${failed.map((f) => f.id).join(", ")} violated`);
  });
  // fast-check refuses a path synchronously, before its promise: the async wrapper makes that a rejection too.
  const outcome = await (async () =>
    fc.check(property, {
      seed: o.seed,
      numRuns: o.runs,
      ...(o.replay ? { path: o.replay.path, endOnFailure: true } : {}),
      // A replay runs its one case whole; and a budget's timer would outlive a path fast-check refuses.
      ...(o.replay ? {} : { plugins: [fc.interruptAfterTimeLimit(o.timeBudgetS * 1000)] }),
      // Each run of this part comes after count - 1 runs of the others.
      ...(o.part ? { maxSkipsPerRun: o.part.count } : {}),
    }))().catch((error: unknown) => {
    // fast-check walks the path through the cases it generates: one this campaign does not generate came from another.
    if (o.replay && /Unable to replay/.test(messageOf(error)))
      throw configError(
        `--replay ${o.replay.path} is not a case of this campaign (seed ${o.seed}, ${o.steps} steps at most): replay it with the --seed and --steps of the line that printed it, on the kit version that printed it (explore's steps differ between versions); or run the campaign again to find the case anew`,
      );
    throw error;
  });
  const violation =
    outcome.failed && last && outcome.counterexamplePath
      ? { ...last, path: outcome.counterexamplePath, replayPath: replayPathOf(String((outcome.counterexample as unknown[] | null)?.[1] ?? "")) }
      : undefined;
  if (outcome.failed && !violation) throw outcome.errorInstance ?? new Error("explore failed without a history");
  return {
    seed: o.seed,
    runs: outcome.numRuns,
    shrinks: outcome.numShrinks,
    steps,
    faults,
    durationMs: Date.now() - started,
    interrupted: outcome.interrupted,
    exercised,
    violation,
  };
}

/** fast-check prints executed commands as "a,b,c /*replayPath=\"...\"*\/": the hint that replays their shrinking. */
function replayPathOf(text: string): string {
  return /\/\*replayPath="([^"]*)"\*\//.exec(text)?.[1] ?? "";
}
