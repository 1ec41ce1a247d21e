import { writeFileSync } from "node:fs";
import path from "node:path";
import { baselineFileFor, type BaselineEntries } from "./baseline.js";
import { updatedBaseline } from "./baseline-update.js";
import { judgeRun, type RunInputs } from "./judge-run.js";
import type { ScenarioResult } from "./scenario-results.js";
import { scenarioCountsText, titleOf, type RunSummary } from "./run-summary.js";
import { writeReports } from "./write-reports.js";
import { passEveryText } from "./repetitions.js";
import type { Provenance } from "./provenance.js";
import { evidenceOf, recordedInputs, type Evidence, type Unfinished } from "./evidence.js";

export interface Conclusion extends RunInputs {
  reports: string;
  /** Where to write the baseline that expects this run's failures (--write-baseline), and by what (--baseline-entries). */
  writeBaseline: string | undefined;
  baselineEntries: BaselineEntries;
  /** --update-baseline: the run's baseline file, rewritten after the run without its stale entries and with its new failures. */
  updateBaseline?: string;
  /** A merged run's shard times, shown in its reports. */
  shards?: RunSummary["shards"];
  /** Where the verdicts come from, on every report. */
  provenance?: Provenance;
  /**
   * Where the run's histories are, and the scenarios a stopped run did not finish: with its message
   * streams, the evidence whose digest the reports carry and `lomi-conformance verify` reads again.
   */
  evidence?: { historiesDir: string; unfinished?: Unfinished };
}

/** The run's summary as every report renders it: its judgement, with a merged run's shard times, its provenance and its evidence. */
export const recordedSummary = (
  run: RunSummary,
  shards: RunSummary["shards"],
  provenance: Provenance | undefined,
  evidence: Evidence | undefined,
): RunSummary => ({
  ...run,
  ...(shards ? { shards } : {}),
  ...(provenance ? { provenance } : {}),
  ...(evidence ? { evidence } : {}),
});

/**
 * The end of every run, whole, sharded or merged from shards: judges the results, writes the
 * baseline asked for and every report, prints the verdict and what fails, and answers the exit code
 * (0 the gate passes, 1 it fails, 2 the harness itself failed).
 */
export function concludeRun(o: Conclusion): { code: number; run: RunSummary } {
  const { results } = o;
  const judged = judgeRun(o);
  // The evidence is on disk by now (the message streams, each scenario's history): its digest goes into the reports.
  const evidence =
    o.evidence &&
    evidenceOf(
      o.reports,
      recordedInputs({ ...o, ...(o.evidence.unfinished ? { unfinished: o.evidence.unfinished } : {}) }, o.reports, o.evidence.historiesDir),
      results,
      o.provenance,
    );
  const run = recordedSummary(judged.run, o.shards, o.provenance, evidence);
  const { rules, problems } = run;
  // The baseline first: a write that fails then leaves the NOT RUN reports the caller writes, never a verdict beside a missing baseline.
  if (o.writeBaseline) writeFileSync(o.writeBaseline, baselineFileFor(o.baselineEntries, rules, results, o.baseline));
  const update = o.updateBaseline
    ? updatedBaseline(o.baseline, run.baselineEntries, rules, results, judged.baselinedScenarioReason, o.baselineEntries)
    : undefined;
  if (o.updateBaseline && update) writeFileSync(o.updateBaseline, update.text);
  const reportFaults = writeReports(o.reports, run, results, judged.baselinedScenarioReason);

  const counted = (v: string) => rules.filter((r) => r.verdict === v).length;
  process.stdout.write(
    `\nlomi-conformance: ${titleOf(run, (t) => t)}\nlomi-conformance: rules: ${counted("pass")} pass, ${counted("fail")} fail, ${counted("baselined")} baselined, ${counted("flaky") > 0 ? `${counted("flaky")} flaky, ` : ""}` +
      `${counted("not-applicable")} not applicable, ${counted("uncovered")} uncovered${counted("not-run") > 0 ? `, ${counted("not-run")} not run` : ""}; ` +
      `scenarios: ${scenarioCountsText(run.scenarios)}; ` +
      `${(run.durationMs / 1000).toFixed(1)} s\n`,
  );
  if (run.repeat !== undefined) {
    const figured = rules.filter((r) => r.repeat);
    const below = figured.filter((r) => r.repeat!.passed < r.repeat!.scenarios);
    process.stdout.write(
      `lomi-conformance: --repeat ${run.repeat}: pass^${run.repeat} per rule (of its scenarios, those that passed in all ${run.repeat} repetitions): ${figured.length - below.length} of ${figured.length} rule(s) at every scenario${below.length > 0 ? `; below: ${below.map((r) => `${r.id} ${passEveryText(r.repeat!)}`).join(", ")}` : ""}\n`,
    );
  }
  for (const r of rules.filter((x) => ["fail", "flaky", "not-applicable", "uncovered"].includes(x.verdict) || x.baseline?.status === "stale")) {
    process.stdout.write(`  ${r.verdict === "not-applicable" ? "NOT JUDGED HERE" : r.verdict.toUpperCase()} ${r.id}: ${r.reason}\n`);
    if (r.verdict === "fail") process.stdout.write(`      ${r.id} (${r.level}): ${r.title}\n      source: "${r.source}"\n`);
  }
  // A problem the headline gives already (a NOT RUN's cause) is not said twice.
  for (const p of problems.filter((x) => !/^[A-Z]+-\d{2}: /.test(x) && !run.headline.includes(x))) process.stdout.write(`  GATE ${p}\n`);
  for (const s of (run.scenarioVerdicts ?? []).filter((x) => x.verdict === "flaky")) {
    process.stdout.write(
      `  FLAKY "${s.name}" (${s.uri}:${s.line ?? "?"}):\n${(s.attempts ?? []).map((a) => `      attempt ${a.attempt} ${a.verdict}, seed ${a.seed ?? "?"}: ${a.replay}\n`).join("")}`,
    );
  }
  for (const g of run.failureGroups.slice(0, 5)) {
    process.stdout.write(
      `  CAUSE of ${g.scenarios.length} failed scenario(s)${g.rules.length > 0 ? ` (${g.rules.join(", ")})` : ""}: at "${g.step}": ${g.cause}\n`,
    );
    for (const p of g.pointers) process.stdout.write(`      how to satisfy ${p}\n`);
  }
  for (const w of run.warnings) process.stdout.write(`  WARNING ${w}\n`);
  if (o.writeBaseline) {
    const written =
      o.baselineEntries === "rule"
        ? `${rules.filter((r) => r.verdict === "fail" || r.verdict === "baselined").length} failing rule(s)`
        : `${new Set(results.filter((r: ScenarioResult) => r.verdict === "fail").map((r) => r.name)).size} failing scenario(s)`;
    process.stdout.write(`lomi-conformance: wrote a baseline of ${written} to ${o.writeBaseline}; replace each placeholder reason\n`);
  }
  if (o.updateBaseline && update) {
    process.stdout.write(
      `lomi-conformance: updated the baseline ${o.updateBaseline}: ${update.dropped.length} stale entr${update.dropped.length === 1 ? "y" : "ies"} dropped${update.dropped.length > 0 ? ` (${update.dropped.join(", ")})` : ""}, ${update.added.length} new failure(s) added${update.added.length > 0 ? ` with a placeholder reason to replace (${update.added.join(", ")})` : ""}, ${update.kept} kept\n`,
    );
  }
  const faults = results.filter((r) => r.harnessFault !== undefined || r.oraclesUnknown !== undefined);
  for (const r of faults) {
    if (r.harnessFault !== undefined) process.stdout.write(`  HARNESS ERROR in "${r.name}": ${r.harnessFault}\n`);
    for (const u of r.oraclesUnknown ?? [])
      process.stdout.write(
        `  HARNESS ERROR in "${r.name}": an oracle failed and judged nothing there (the scenario's other verdicts stand): ${u.split("\n")[0]}\n`,
      );
  }
  for (const f of reportFaults) process.stdout.write(`  HARNESS ERROR writing ${f} (written as a note; the other reports are whole)\n`);
  process.stdout.write(
    `lomi-conformance: reports in ${path.relative(process.cwd(), o.reports) || "."}/ (conformance.html, conformance.md, conformance.json, conformance.svg, cucumber.html, junit.xml)\n`,
  );
  // The harness's own failure invalidates the run whatever the rules say.
  return { code: faults.length > 0 || reportFaults.length > 0 || run.verdict === "not-run" ? 2 : problems.length === 0 ? 0 : 1, run };
}
