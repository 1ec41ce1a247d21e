// npm run bench:explore-mutants -- [--only NAME,...] [--time-budget S] [--runs K] [--steps M] [--seed N] [--out FILE] [--table]
// What a default `lomi-conformance explore --mutant NAME` campaign finds on each hand-written mutant
// (mutants/index.ts's MUTANTS; not the generated untyped-<code> ones), in one process: found or not,
// by which oracles and rules, at which run, shrunk to how many steps. Writes bench/figures/explore-mutants.json
// and prints the markdown table of docs/explore.md. A miss spends the whole time budget, which is
// wall-clock: on a loaded machine it reaches fewer runs, so each entry keeps the load it met.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { parseArgs } from "node:util";
import { explore } from "../harness/explore/explore.js";
import { MUTANTS } from "../mutants/index.js";
import { KIT_ROOT } from "../protocol/kit-root.js";
import { readWorldFile } from "../simulator/world-file.js";
import {
  DEFAULT_CAMPAIGN,
  EXPLORE_MUTANTS_JSON,
  foundBy,
  markdownTable,
  mergeEntries,
  readEntries,
  tally,
  writeEntries,
  type Campaign,
  type Entry,
} from "./explore-mutants-figures.js";

const USAGE = `usage: npm run bench:explore-mutants -- [options]

Runs explore's campaign on each hand-written mutant, in-process, one after the other, and writes
what it found to ${EXPLORE_MUTANTS_JSON} (entries of mutants not measured this time are kept).

  --only NAME,...     these mutants only (default: every one of mutants/index.ts's MUTANTS)
  --time-budget S     seconds of wall-clock time per mutant (default ${DEFAULT_CAMPAIGN.timeBudgetS}); a quick pass with less finds the misses to confirm at the default
  --runs K            runs per mutant (default ${DEFAULT_CAMPAIGN.runs})
  --steps M           steps a run at most (default ${DEFAULT_CAMPAIGN.steps})
  --seed N            (default ${DEFAULT_CAMPAIGN.seed})
  --out FILE          (default ${EXPLORE_MUTANTS_JSON})
  --table             measure nothing: print the table of FILE
  --help`;

function fail(message: string): never {
  process.stderr.write(`bench:explore-mutants: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      only: { type: "string" },
      "time-budget": { type: "string", default: String(DEFAULT_CAMPAIGN.timeBudgetS) },
      runs: { type: "string", default: String(DEFAULT_CAMPAIGN.runs) },
      steps: { type: "string", default: String(DEFAULT_CAMPAIGN.steps) },
      seed: { type: "string", default: String(DEFAULT_CAMPAIGN.seed) },
      out: { type: "string", default: EXPLORE_MUTANTS_JSON },
      table: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

function positive(option: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`${option} must be a positive integer, not ${text}`);
  return n;
}

const names = MUTANTS.map((m) => m.name);
const printTable = (entries: readonly Entry[]) => {
  const t = tally(entries);
  process.stdout.write(
    `\n${markdownTable(entries)}\n\nfound ${t.found} of ${t.of}${t.notDefault.length ? `; not the default campaign: ${t.notDefault.join(", ")}` : ""}\n`,
  );
};
if (values.table) {
  printTable(readEntries(values.out));
  process.exit(0);
}

const campaign: Campaign = {
  seed: Number(values.seed),
  runs: positive("--runs", values.runs),
  steps: positive("--steps", values.steps),
  timeBudgetS: positive("--time-budget", values["time-budget"]),
};
if (!Number.isInteger(campaign.seed) || campaign.seed < 0) fail(`--seed must be a natural number, not ${values.seed}`);
const only = values.only?.split(",").map((s) => s.trim());
for (const n of only ?? []) if (!names.includes(n)) fail(`--only: no hand-written mutant ${n}`);
const chosen = MUTANTS.filter((m) => !only || only.includes(m.name));
const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: KIT_ROOT, encoding: "utf8" }).trim();
const world = readWorldFile();

process.stdout.write(
  `explore on ${chosen.length} mutants: seed ${campaign.seed}, ${campaign.runs} runs of at most ${campaign.steps} steps, ${campaign.timeBudgetS} s each; ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}\n`,
);
const measured: Entry[] = [];
for (const [i, mutant] of chosen.entries()) {
  const loadAverage = Math.round(os.loadavg()[0]! * 100) / 100;
  const cpu = process.cpuUsage();
  let firstViolation: number | undefined;
  // The run parameters `explore --mutant NAME` builds: the same broker, seeds and timeout.
  const result = await explore({
    ...campaign,
    run: { adapter: "in-process", mutant: mutant.name, seed: campaign.seed, timeoutMs: 10_000 },
    world,
    onProgress: (p) => {
      if (p.violated && !p.shrinking && firstViolation === undefined) firstViolation = p.executions;
    },
  });
  const used = process.cpuUsage(cpu);
  const v = result.violation;
  const entry: Entry = {
    mutant: mutant.name,
    declares: mutant.breaks,
    campaign,
    finding: v
      ? {
          oracles: v.invariants.map((f) => f.id),
          rules: [...new Set(v.invariants.flatMap((f) => f.violations.flatMap((x) => x.rules)))].sort(),
          run: firstViolation ?? result.runs,
          shrunkSteps: v.steps.length,
          shrinkCut: result.interrupted,
          path: v.path,
          replayPath: v.replayPath,
        }
      : null,
    runs: result.runs,
    interrupted: result.interrupted,
    wallMs: result.durationMs,
    cpuMs: Math.round((used.user + used.system) / 1000),
    loadAverage,
    date: new Date().toISOString(),
    commit,
  };
  measured.push(entry);
  // Written after each mutant, so a long pass stopped midway keeps what it measured.
  writeEntries(values.out, mergeEntries(readEntries(values.out), measured, names));
  const undeclared = entry.finding ? entry.finding.rules.filter((r) => !mutant.breaks.includes(r)) : [];
  process.stdout.write(
    `[${i + 1}/${chosen.length}] ${mutant.name}: ${entry.finding ? `found by ${foundBy(entry)} at run ${entry.finding.run}, shrunk to ${entry.finding.shrunkSteps} step${entry.finding.shrunkSteps === 1 ? "" : "s"}${entry.finding.shrinkCut ? " (budget ended the shrinking)" : ""}` : foundBy(entry)}` +
      `${undeclared.length ? `; rules it does not declare: ${undeclared.join(", ")}` : ""}; ${(entry.wallMs / 1000).toFixed(1)} s wall, ${(entry.cpuMs / 1000).toFixed(1)} s CPU, load ${loadAverage}\n`,
  );
}
process.stdout.write(`written: ${values.out}\n`);
printTable(mergeEntries(readEntries(values.out), [], names));
