// Durable admissions per second (lomi_terminal_run, fresh request keys, a command that settles at
// once), by 1 client and by 32 clients each on a terminal of its own, beside raw better-sqlite3
// FULL commits measured in between (interleaved, so the machine's noise hits all three alike).
// Each sample runs for a fixed time, not a fixed count: on a slow disk the bench still ends. On a
// fast one it ends sooner, before the store reaches its receipt limit (a full store refuses).
import { figure, type Figure } from "../report.js";
import { rawCommitsPerSecond } from "../raw-sqlite.js";
import { summarize } from "../summary.js";
import { QUICK_COMMAND } from "../bench-agent.js";
import { inProcessBenchBroker } from "../in-process-bench-broker.js";
import { DEFAULT_STORE_LIMITS } from "../../reference-broker/receipt-store.js";
import type { FigureContext } from "./figure-context.js";

/** Admissions per second of `clients` agents admitting runs, all at once, for about `seconds`. */
async function admissionsPerSecond(seed: number, clients: number, seconds: number): Promise<number> {
  const bench = await inProcessBenchBroker(seed);
  try {
    const agents = await bench.agents(clients);
    await agents[0]!.run(QUICK_COMMAND); // warm: the first reply builds what later ones reuse
    const started = process.hrtime.bigint();
    const deadline = started + BigInt(Math.round(seconds * 1e9));
    // The store already holds a terminal per agent and the warming run; each agent may have one call in flight past the check.
    const room = DEFAULT_STORE_LIMITS.receipts - 2 * clients - 1;
    let admitted = 0;
    await Promise.all(
      agents.map(async (agent) => {
        while (process.hrtime.bigint() < deadline && admitted < room) {
          const op = await agent.run(QUICK_COMMAND);
          if (op.state !== "succeeded") throw new Error(`${agent.name}: an admission settled ${op.state}`);
          admitted++;
        }
      }),
    );
    return admitted / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await bench.close();
  }
}

export async function admissionFigures(ctx: FigureContext): Promise<Figure[]> {
  const raw: number[] = [];
  const one: number[] = [];
  const many: number[] = [];
  const seconds = ctx.quick ? 1 : 2;
  for (let run = 0; run < ctx.runs; run++) {
    ctx.progress(`run ${run + 1}/${ctx.runs}`);
    raw.push(rawCommitsPerSecond(seconds));
    one.push(await admissionsPerSecond(run + 1, 1, seconds));
    many.push(await admissionsPerSecond(run + 1, 32, seconds));
  }
  const baseline = { label: "raw better-sqlite3 WAL+FULL 1-row commits", summary: summarize(raw) };
  return [
    figure({
      id: "admissions-1",
      label: "durable admissions, 1 client",
      unit: "/s",
      figure: summarize(one),
      baseline,
      goal: { on: "ratio", atLeast: 0.45, text: "≥ 0.45× raw (two commits bound it at 0.5×)" },
    }),
    figure({
      id: "admissions-32",
      label: "durable admissions, 32 clients on 32 terminals",
      unit: "/s",
      figure: summarize(many),
      baseline,
      goal: { on: "ratio", atLeast: 2, text: "≥ 2× raw (group commit)" },
    }),
  ];
}
