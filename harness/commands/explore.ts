import path from "node:path";
import { shardSpec } from "../shards/shard-option.js";
import { BROKER, brokerArgs, brokerOf } from "./broker.js";
import { command, integer, read, text } from "./declaration.js";
import { reportsOption, UsageError } from "./options.js";

/** `lomi-conformance explore`: loads only when run, as it brings fast-check and the mutants. */
export const EXPLORE = command({
  name: "explore",
  summary: "seeded model-based runs with faults, each judged by the oracles",
  operands: { count: 0 },
  description:
    "Agents issue random operations against the broker while the simulated Lomi injects faults; every\n" +
    "request and reply is recorded in a history, and the oracles judge it. A violation is shrunk to a\n" +
    "short sequence of steps and printed with a command that replays it exactly (docs/explore.md).",
  options: {
    ...BROKER,
    seed: integer({
      value: "N",
      max: 2 ** 31 - 1,
      default: 1,
      help: "the one seed everything derives from: the steps, the simulator's and the broker's seeds, Lomi's virtual clock",
    }),
    runs: integer({ value: "K", min: 1, default: 100, help: "runs; each starts a fresh simulated Lomi and a fresh receipt store" }),
    steps: integer({ value: "M", min: 1, max: 10_000, default: 60, help: "steps a run at most" }),
    "time-budget": integer({ value: "S", min: 1, default: 100, help: "no new run after S seconds, shrinking included" }),
    replay: text({ value: "PATH", help: "with --replay-path: replay one case exactly, as a violation's replay line says" }),
    "replay-path": text({ value: "RP", help: "with --replay: the case's path of choices" }),
    regressions: text({ value: "FILE", help: "add a found case to FILE (the kit's list is fixtures/explore-seeds.json)" }),
    shard: read({
      value: "K/N",
      schema: shardSpec,
      help: "explore part K of N of the campaign --seed and --runs describe: the parts' runs are disjoint, --runs counts one part's; `lomi-conformance merge` joins the parts' reports",
    }),
    "timeout-ms": integer({ value: "N", min: 1, default: 10_000, help: "per broker call" }),
    reports: reportsOption("DIR", "where explore.json and explore.md go"),
  },
  examples: [
    { line: 'lomi-conformance explore --broker-cmd "your-broker --stdio"', says: "your broker as a process (a crash is a real SIGKILL)" },
    { line: "lomi-conformance explore --seed 7 --runs 300 --steps 80 --time-budget 600", says: "a longer campaign" },
    { line: "lomi-conformance explore --mutant idem-conflict-as-duplicate", says: "a deliberately broken broker (mutants/), in-process: a violation to see" },
  ],
  notes: "Exit codes: 0 no violation, 1 a violation (with its replay line), 2 a configuration error.",
  async run({ values }) {
    const { exploreCommand } = await import("../explore/campaign.js");
    const { seed } = values;
    const { parameters, name } = brokerOf(values, { seed, timeoutMs: values["timeout-ms"] });
    if ((values.replay === undefined) !== (values["replay-path"] === undefined))
      throw new UsageError("--replay and --replay-path go together, as the replay line prints them");
    return exploreCommand({
      seed,
      runs: values.runs,
      steps: values.steps,
      timeBudgetS: values["time-budget"],
      parameters,
      brokerName: name,
      replayArgs: [...brokerArgs(values), "--reports", values.reports],
      replay: values.replay === undefined ? undefined : { path: values.replay, replayPath: values["replay-path"]! },
      reports: path.resolve(values.reports),
      regressions: values.regressions && path.resolve(values.regressions),
      ...(values.shard !== undefined ? { part: values.shard } : {}),
      out: (t) => process.stdout.write(t),
      tty: process.stdout.isTTY === true,
    });
  },
});
