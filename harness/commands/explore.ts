import path from "node:path";
import { parseShard } from "../shards/shard-option.js";
import { brokerArgs, brokerOf } from "./broker.js";
import { integer, UsageError, type OptionValues } from "./options.js";

/** explore loads only when asked for: it brings fast-check and the mutants. */
export async function explore(values: OptionValues): Promise<number> {
  const { exploreCommand } = await import("../explore/campaign.js");
  const seed = integer("--seed", values.seed, 0, 2 ** 31 - 1);
  const { parameters, name } = brokerOf(values, seed, integer("--timeout-ms", values["timeout-ms"], 1));
  if ((values.replay === undefined) !== (values["replay-path"] === undefined)) throw new UsageError("--replay and --replay-path go together, as the replay line prints them");
  const replayArgs = [...brokerArgs(values), "--reports", values.reports];
  return exploreCommand({
    seed,
    runs: integer("--runs", values.runs, 1),
    steps: integer("--steps", values.steps, 1, 10_000),
    timeBudgetS: integer("--time-budget", values["time-budget"], 1),
    parameters,
    brokerName: name,
    replayArgs,
    replay: values.replay === undefined ? undefined : { path: values.replay, replayPath: values["replay-path"]! },
    reports: path.resolve(values.reports),
    regressions: values.regressions && path.resolve(values.regressions),
    ...(values.shard !== undefined ? { part: parseShard(values.shard) } : {}),
    out: (t) => process.stdout.write(t),
    tty: process.stdout.isTTY === true,
  });
}
