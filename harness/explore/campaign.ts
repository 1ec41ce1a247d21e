import path from "node:path";
import { readWorldFile } from "../../simulator/world-file.js";
import { inProcessParts } from "../adapters/index.js";
import { configError } from "../harness-error.js";
import { kitVersion } from "../shards/manifest.js";
import { shardText, type ShardSpec } from "../shards/shard-option.js";
import type { RunParameters } from "../run/run-parameters.js";
import { explore, type ExploreProgress } from "./explore.js";
import { formatHistory } from "../history/format.js";
import { addRegression, exercisedRules, notReproducedText, regressionOf, writeExploreReports, type ExploreReport } from "./reports.js";
import { shellWord } from "../text/shell-word.js";
import { oracleHead, pointerLines, rulesText } from "../report/oracle-findings.js";

export interface ExploreCommandOptions {
  seed: number;
  runs: number;
  steps: number;
  timeBudgetS: number;
  parameters: RunParameters;
  brokerName: string;
  /** The options a replay repeats as given: the broker's, and --reports (a replay must not write over reports/). */
  replayArgs: string[];
  replay: { path: string; replayPath: string } | undefined;
  reports: string;
  regressions: string | undefined;
  /** --shard K/N: this part of the campaign only (merge joins the parts). */
  part?: ShardSpec;
  out: (text: string) => void;
  /** Whether `out` is a terminal: progress is then one live line, not a line per run. */
  tty?: boolean;
}

/**
 * A line per run, so a CI log (no terminal) shows the campaign moving rather than minutes of
 * silence; on a terminal the same line is redrawn in place, and the summary replaces it.
 */
function progressPrinter(o: ExploreCommandOptions): (p: ExploreProgress) => void {
  const tty = o.tty ?? false;
  return (p) => {
    // Shrinking tries many cases that no longer violate: a log keeps only each smaller one that still does.
    if (p.shrinking && !p.violated && !tty) return;
    const line = o.replay
      ? `the case replayed: ${p.runSteps} steps${p.violated ? ", violates" : ""}`
      : p.shrinking
        ? `shrinking: run ${p.executions}${p.violated ? `, still violates in ${p.runSteps} steps` : ""}`
        : `run ${p.executions} of ${o.runs}: ${p.runSteps} steps, ${p.steps} in all${p.violated ? "; VIOLATION found, shrinking it" : ""}`;
    o.out(tty ? `\r\x1b[2K${line}${p.violated && !p.shrinking ? "\n" : ""}` : `${line}\n`);
  };
}

/** `lomi-conformance explore`: answers the exit code (0 no violation, 1 a violation). */
export async function exploreCommand(o: ExploreCommandOptions): Promise<number> {
  if (o.parameters.adapter === "in-process") await inProcessParts(o.parameters);
  if (o.parameters.adapter === "url")
    throw configError(
      "explore starts, crashes and restarts the broker and gives each run a fresh simulated Lomi: use the reference broker, --broker-cmd or --broker-image, not --broker-url",
    );
  const broker = o.brokerName;
  // The seed first, so whatever happens next can be replayed.
  const part = o.part && !o.replay ? o.part : undefined;
  o.out(
    `lomi-conformance explore: seed ${o.seed}, ${o.replay ? "replaying one case" : `${part ? `part ${shardText(part)}: ` : ""}${o.runs} runs of at most ${o.steps} steps, time budget ${o.timeBudgetS} s`}, broker ${broker}\n`,
  );
  const result = await explore({
    onProgress: progressPrinter(o),
    seed: o.seed,
    runs: o.runs,
    steps: o.steps,
    timeBudgetS: o.timeBudgetS,
    run: o.parameters,
    world: readWorldFile(),
    replay: o.replay,
    ...(part ? { part } : {}),
  });
  if (o.tty) o.out("\r\x1b[2K");
  const { violation, ...summary } = result;
  const faults = Object.entries(result.faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  o.out(
    `runs ${result.runs} (+${result.shrinks} shrinking), steps ${result.steps}, ${(result.durationMs / 1000).toFixed(1)} s${result.interrupted ? ", time budget reached" : ""}\nfaults injected: ${faults}\n`,
  );
  const rules = exercisedRules(result.exercised);
  o.out(
    `rules exercised: ${rules.exercised.length} of the ${rules.exercised.length + rules.idle.length} the oracles judge; not exercised (never a pass): ${rules.idle.join(", ") || "none"}\n`,
  );
  const replay = violation
    ? [
        "lomi-conformance explore",
        "--seed",
        String(o.seed),
        "--steps",
        String(o.steps),
        "--replay",
        shellWord(violation.path),
        "--replay-path",
        shellWord(violation.replayPath),
        ...o.replayArgs.map(shellWord),
      ].join(" ")
    : undefined;
  const report: ExploreReport = {
    broker,
    seed: o.seed,
    steps: o.steps,
    ...(part ? { part: { ...part, runs: o.runs, kitVersion: kitVersion() } } : {}),
    ...(o.replay ? { replay: { ...o.replay, reproduced: violation !== undefined } } : {}),
    result: summary,
    violation:
      violation && replay !== undefined
        ? { invariants: violation.invariants, steps: violation.steps, path: violation.path, replayPath: violation.replayPath, replay }
        : undefined,
  };
  writeExploreReports(o.reports, report, violation && formatHistory(violation.history));
  if (!violation) {
    o.out(`${o.replay ? `${notReproducedText(o.replay)}\n` : "NO VIOLATION — "}reports in ${path.relative(process.cwd(), o.reports) || "."}/explore.md\n`);
    return 0;
  }
  o.out(`VIOLATION of ${violation.invariants.map((f) => oracleHead(f.id, f.violations)).join(", ")}\n`);
  for (const f of violation.invariants) for (const v of f.violations) o.out(`  ${rulesText(v.rules)} (${f.id}): ${v.message}\n`);
  for (const line of pointerLines(violation.invariants.flatMap((f) => f.violations))) o.out(`  ${line}\n`);
  o.out(
    `shrunk to ${violation.steps.length} steps:\n${violation.steps.map((s, i) => `  ${i + 1}. ${s}\n`).join("")}replay: ${replay}\nreports in ${path.relative(process.cwd(), o.reports) || "."}/ (explore.md, explore.json, explore-history.jsonl)\n`,
  );
  if (o.regressions) {
    addRegression(
      o.regressions,
      regressionOf(o.parameters, {
        seed: o.seed,
        steps: o.steps,
        path: violation.path,
        replayPath: violation.replayPath,
        invariants: violation.invariants.map((f) => f.id),
      }),
    );
    o.out(`case added to ${o.regressions}\n`);
  }
  return 1;
}
