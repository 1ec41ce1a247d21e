// Reopening a store whose unfinished operations must all become outcome_unknown, at 1,024 and 4,096
// receipts: each size's figure, and their ratio (4× the receipts should cost at most about 4× the
// time). Each size's store is filled once through the broker itself, then every run reopens a fresh
// copy of it, so every run has the same work to do.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { systemClock } from "../../protocol/ports.js";
import { Broker } from "../../reference-broker/broker.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../../simulator/in-process-route.js";
import { benchWorld, ENDLESS_COMMAND } from "../bench-agent.js";
import { inProcessBenchBroker } from "../in-process-bench-broker.js";
import { figure, type Figure } from "../report.js";
import { repeat, type Summary } from "../summary.js";
import type { FigureContext } from "./figure-context.js";

/** Runs per terminal: one runs, the rest queue behind it; admitting behind a long queue costs more, and this is setup. */
const RUNS_PER_TERMINAL = 16;
/** Filling writes through fsync only to build the input: on tmpfs where there is one, so it takes seconds. */
const FILL_PARENT = existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
const STORE_FILES = ["", "-wal"];

/**
 * A store of exactly `receipts` receipts: one settled creation per terminal, the rest runs of a
 * command that never ends on Lomi's standing clock (one running per terminal, the others queued).
 * Answers the directory holding a copy of the closed store.
 */
const terminalsFor = (receipts: number) => receipts / RUNS_PER_TERMINAL;

async function fillStore(receipts: number): Promise<string> {
  const bench = await inProcessBenchBroker(receipts, FILL_PARENT);
  const template = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-reopen-template-"));
  try {
    const terminals = terminalsFor(receipts);
    const agents = await bench.agents(terminals);
    const runs = receipts - terminals;
    await Promise.all(
      agents.map(async (agent, i) => {
        for (let n = i; n < runs; n += terminals) await agent.run(ENDLESS_COMMAND);
      }),
    );
    bench.broker.close();
    for (const suffix of STORE_FILES)
      if (existsSync(bench.storePath + suffix)) copyFileSync(bench.storePath + suffix, path.join(template, `receipts.sqlite${suffix}`));
    return template;
  } finally {
    await bench.close();
  }
}

/** Milliseconds Broker.start takes on a fresh copy of the template, checked to have recovered `unfinished`. */
async function reopenMs(template: string, unfinished: number, seed: number): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-reopen-"));
  try {
    for (const suffix of STORE_FILES)
      if (existsSync(path.join(template, `receipts.sqlite${suffix}`)))
        copyFileSync(path.join(template, `receipts.sqlite${suffix}`), path.join(dir, `receipts.sqlite${suffix}`));
    const started = process.hrtime.bigint();
    const broker = await Broker.start({
      nativeUrl: IN_PROCESS_ORIGIN,
      fetch: inProcessFetch,
      storePath: path.join(dir, "receipts.sqlite"),
      seed,
      hostClock: systemClock,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    broker.close();
    if (broker.recovered !== unfinished) throw new Error(`reopening recovered ${broker.recovered} unfinished operations, not ${unfinished}`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function reopenFigures(ctx: FigureContext): Promise<Figure[]> {
  const measured = new Map<number, Summary>();
  for (const receipts of [1024, 4096]) {
    ctx.progress(`filling a store of ${receipts} receipts through the broker`);
    const template = await fillStore(receipts);
    try {
      // Broker.start asks Lomi for the time: a simulated Lomi answers it in this process.
      routeInProcess(new SimulatorHost({ ...benchWorld(), autoApprovePairings: true }, 1));
      ctx.progress(`reopening ${receipts} receipts, ${ctx.runs} runs`);
      measured.set(receipts, await repeat(ctx.runs, (run) => reopenMs(template, receipts - terminalsFor(receipts), run + 1)));
    } finally {
      stopRouting();
      rmSync(template, { recursive: true, force: true });
    }
  }
  const note = `Broker.start on a copy of a store of unfinished terminal runs (1 running and ${RUNS_PER_TERMINAL - 2} queued per terminal, beside its settled creation); includes the one clock call to Lomi (in-process)`;
  const small = measured.get(1024)!;
  const large = measured.get(4096)!;
  return [
    figure({ id: "reopen-1024", label: "reopen + mark outcome_unknown, 1,024 receipts", unit: "ms", figure: small, note }),
    figure({
      id: "reopen-4096",
      label: "reopen + mark outcome_unknown, 4,096 receipts",
      unit: "ms",
      figure: large,
      goal: { on: "median", atMost: 50, text: "< 50 ms" },
    }),
    figure({
      id: "reopen-linearity",
      label: "reopen 4,096 / 1,024 (linearity)",
      unit: "ms",
      figure: large,
      baseline: { label: "reopen 1,024 receipts", summary: small },
      goal: { on: "ratio", atMost: 4.4, text: "≤ 4.4× (linear, 10 % slack)" },
    }),
  ];
}
