import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { CAPABILITIES } from "../../harness/run/capabilities.js";
import { precisionOf, type TeethMatrix, type TeethRun } from "../../harness/authoring/teeth.js";
import { ALL_MUTANTS, MUTANTS } from "../../mutants/index.js";
import type { Mutant } from "../../mutants/mutant.js";
import { scenarioCatalogue } from "../../harness/run/feature-catalogue.js";
import { conformance } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

// Blame precision as a number npm test holds: every shipped mutant, hand-written and generated, fails
// at least one rule it declares (mutants/) and no other. teeth judges them in-process, on long-lived
// judging processes: a mutant made of a picking session (every generated one among them) in the
// scenarios whose reference history holds a call it picks (a store part may pick the calls that
// reach it, mutants/wrapped-store.ts), any other on the whole suite; the rules
// in-process cannot judge (a kill at a process's start) are judged over stdio below.

const IN_PROCESS_LACKS = new Set(["kill-at-start"]);

/** One teeth run of the mutants on `tags` (all of the suite when undefined), its matrix read back. */
async function teethOf(
  mutants: readonly string[],
  tags: string | undefined,
  jobs: number,
): Promise<{ matrix: TeethMatrix; reports: string; output: string; code: number | null }> {
  const reports = mkdtempSync(path.join(os.tmpdir(), "lomi-precision-"));
  const run = await conformance(["teeth", "--mutant", mutants.join(","), "--jobs", String(jobs), "--reports", reports, ...(tags ? ["--tags", tags] : [])]);
  return { ...run, reports, matrix: JSON.parse(readFileSync(path.join(reports, "teeth", "teeth.json"), "utf8")) as TeethMatrix };
}

/** Rules only the store fills (@slow) judge: a mutant that declares one is judged on the fills too. */
const SLOW_ONLY = (() => {
  const catalogue = scenarioCatalogue();
  const rulesOf = (tags: readonly string[]) => tags.flatMap((t) => /^@([A-Z]+-\d+)$/.exec(t)?.[1] ?? []);
  const quick = new Set(catalogue.filter((s) => !s.tags.includes("@slow")).flatMap((s) => rulesOf(s.tags)));
  return new Set(catalogue.flatMap((s) => rulesOf(s.tags)).filter((id) => !quick.has(id)));
})();

type Judged = TeethRun & { reports: string };

/**
 * A mutant's runs over the two halves of the suite as one run over the whole: the rules it failed
 * in either, the declared rules either judged, every scenario that killed it. A half that could not
 * run leaves the whole not run.
 */
function overTheWholeSuite(halves: readonly Judged[]): Judged {
  const [first, ...rest] = halves;
  const union = (pick: (r: Judged) => readonly string[] | undefined) => [...new Set(halves.flatMap((r) => pick(r) ?? []))];
  const notRun = halves.flatMap((r) => r.notRun ?? []);
  const elsewhere = union((r) => r.elsewhere);
  return {
    ...first!,
    fails: union((r) => r.fails),
    declares: union((r) => r.declares),
    ...(elsewhere.length > 0 ? { elsewhere } : {}),
    killedBy: halves.flatMap((r) => r.killedBy ?? []),
    ...(notRun.length > 0 ? { notRun: notRun.join("; ") } : {}),
    scope: halves.map((r) => r.scope ?? "every scenario selected").join("; then "),
    // The failure a test reads back is in the reports of a half that failed it.
    reports: [first!, ...rest].find((r) => r.fails.length > 0)?.reports ?? first!.reports,
  };
}

test("every mutant fails only the rules it declares, and at least one of them, in-process", async () => {
  // The two store fills (@slow: 4,096 receipts, 4,096 epochs) cost a whole run of the other scenarios
  // each. Every mutant is judged on every other scenario in one teeth run (one control for all); the
  // store mutants (their defect lives in the store, or they declare a rule only the fills judge) are
  // judged on the fills in a second, beside it. Each is held to its declaration over both halves: the
  // whole suite, every scenario in it run once per mutant and once for the control.
  const inStore = (m: Mutant) => m.family === "CAP" || m.breaks.some((id) => SLOW_ONLY.has(id));
  const runs = await Promise.all([
    teethOf(
      ALL_MUTANTS.map((m) => m.name),
      "not @slow",
      2,
    ),
    teethOf(
      ALL_MUTANTS.filter(inStore).map((m) => m.name),
      "@slow",
      1,
    ),
  ]);
  const halves = runs.flatMap((r) => r.matrix.runs.slice(1).map((m): Judged => ({ ...m, reports: r.reports })));
  const mutants = ALL_MUTANTS.map((m) => overTheWholeSuite(halves.filter((r) => r.broker === m.name)));
  const output = runs.map((r) => r.output.slice(-3000)).join("\n");
  assert.equal(halves.length, ALL_MUTANTS.length + ALL_MUTANTS.filter(inStore).length, "every mutant ran, the store mutants on the fills too");
  const problems = mutants.flatMap((r) => {
    if (r.notRun !== undefined) return [`${r.broker}: not run (${r.notRun})`];
    // A mutant judged on no scenario that can show its defect would pass vacuously.
    if ((r.declares ?? []).length === 0 && (r.elsewhere ?? []).length === 0)
      return [`${r.broker}: none of its declared rules was judged (${r.scope ?? "no scenario selected"})`];
    const { outside, missed } = precisionOf(r);
    return [
      ...(outside.length > 0
        ? [
            `${r.broker} fails ${outside.join(", ")}, which it does not declare (it declares ${(r.declares ?? []).join(", ") || "nothing"}); killed by ${(r.killedBy ?? []).map((k) => `${k.at} → ${k.rules.join(", ")}`).join("; ")}`,
          ]
        : []),
      ...(missed ? [`${r.broker} fails none of ${(r.declares ?? []).join(", ")}`] : []),
    ];
  });
  assert.deepEqual(problems, [], output);
  // Each half's own exit code holds a mutant to what that half alone shows (a store mutant may fail
  // its rules in one half only): the whole is judged above; each half must have judged every run.
  for (const r of runs) assert.ok(r.code === 0 || r.code === 1, r.output.slice(-3000));
  // Each hand-written mutant is caught, and its failure explains itself: the step, its steps ✓/✗, the calls as sent.
  type Explained = {
    rules: Array<{ scenarios: Array<{ verdict: string; failure?: { step?: string; steps?: unknown[]; exchanges?: Array<{ sent: string }> } }> }>;
  };
  for (const m of MUTANTS) {
    const run = mutants.find((r) => r.broker === m.name)!;
    if (m.breaks.every((id) => run.elsewhere?.includes(id))) continue; // shown over stdio, below
    assert.ok(run.fails.length > 0, `${m.name} is caught`);
    const report = JSON.parse(readFileSync(path.join(run.reports, "teeth", m.name, "conformance.json"), "utf8")) as Explained;
    const failures = report.rules.flatMap((r) => r.scenarios).flatMap((x) => (x.verdict === "fail" && x.failure ? [x.failure] : []));
    assert.ok(
      failures.some((f) => f.step && (f.steps?.length ?? 0) > 0 && (f.exchanges?.length ?? 0) > 0),
      `${m.name}'s failures carry their step, steps and calls`,
    );
  }
});

test("a mutant whose rules only a broker process can show fails only those rules over stdio", async () => {
  const asProcess = MUTANTS.filter((m) => m.needs !== undefined && IN_PROCESS_LACKS.has(m.needs));
  assert.ok(asProcess.length > 0 && asProcess.every((m) => CAPABILITIES.includes(m.needs!)));
  for (const m of asProcess) {
    const reports = path.join(mkdtempSync(path.join(os.tmpdir(), `lomi-precision-${m.name}-`)), "reports");
    const run = await conformance([
      "--broker-cmd",
      `node mutants/lomi-mutant.js ${m.name}`,
      "--tags",
      `@needs-${m.needs}`,
      ...TIMEOUT_ARGS,
      "--reports",
      reports,
    ]);
    const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as { rules: Array<{ id: string; verdict: string }> };
    const failed = report.rules.filter((r) => r.verdict === "fail").map((r) => r.id);
    assert.equal(run.code, 1, run.output.slice(-3000));
    assert.ok(failed.length > 0, `${m.name} fails nothing over stdio`);
    assert.deepEqual(
      failed.filter((id) => !m.breaks.includes(id)),
      [],
      `${m.name} fails only what it declares (${m.breaks.join(", ")})`,
    );
  }
});
