import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ALL_MUTANTS } from "../mutants/index.js";
import { kitPath } from "../protocol/kit-root.js";
import { configError } from "./harness-error.js";
import { inFlight } from "./in-flight.js";
import { loadRules, type Rule } from "./rules.js";
import { readReportedRun, type ReportedRule } from "./source-coverage.js";

export const TEETH_FILE = "docs/teeth.json";

/** Why no mutant breaks a MUST rule, by rule: the list `teeth` accepts in place of a mutant. */
const teethFileSchema = z.strictObject({ $comment: z.string().optional(), unbroken: z.record(z.string(), z.string().min(1)) });
export const loadTeeth = () => teethFileSchema.parse(JSON.parse(readFileSync(kitPath(TEETH_FILE), "utf8")));

const CONTROL = "reference broker";

export interface TeethRun {
  /** A mutant's name, or the reference broker (the control: every rule it fails makes the matrix meaningless). */
  broker: string;
  exitCode: number;
  /** The rules its run failed. */
  fails: string[];
  durationMs: number;
  /** Why the run gave no verdicts (exit 2): the harness's problem, never read as "breaks nothing". */
  notRun?: string;
}

export interface TeethMatrix {
  tags: string | undefined;
  runs: TeethRun[];
  /** Per selected rule: the mutants that break it. */
  rules: Array<{ id: string; level: Rule["level"]; brokenBy: string[]; reason: string | undefined }>;
  /** Rules the in-process control could not judge (not applicable there), with the reason docs/teeth.json gives. */
  notJudged: Array<{ id: string; level: Rule["level"]; why: string; reason: string | undefined }>;
}

export interface TeethOptions {
  tags: string | undefined;
  /** Runs side by side (each is one process judging the selection in-process). */
  jobs: number;
  reports: string;
  /** Names of the mutants to run (default: every one a run can name). */
  mutants: readonly string[] | undefined;
  seed: number;
  write: (text: string) => void;
}

const BIN = kitPath("bin/lomi-conformance.js");

/** One run of the selection against a mutant (or the reference broker), in a process of its own, its reports in `dir`; with the rules its report judged. */
function judge(mutant: string | undefined, o: TeethOptions, dir: string): Promise<TeethRun & { judged: ReportedRule[] }> {
  const started = Date.now();
  const args = [BIN, "--reports", dir, "--seed", String(o.seed), ...(o.tags ? ["--tags", o.tags] : []), ...(mutant ? ["--mutant", mutant] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], cwd: kitPath(".") });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const reported = readReportedRun(dir);
      const base = { broker: mutant ?? CONTROL, exitCode: code ?? 2, durationMs: Date.now() - started };
      if (code === 2 || reported === undefined) return resolve({ ...base, fails: [], judged: [], notRun: stderr.trim().split("\n").slice(-3).join(" ") || `see its reports in ${dir}` });
      resolve({ ...base, fails: reported.run.rules.filter((r) => r.verdict === "fail").map((r) => r.id), judged: reported.run.rules });
    });
  });
}

/**
 * `lomi-conformance teeth`: every mutant against the selected scenarios, and the matrix of which
 * mutant breaks which rule. A rule no mutant breaks has no proof that its scenarios can fail; a MUST
 * rule in that state needs its reason in docs/teeth.json. The reference broker runs first, as the
 * control: a rule it fails would read as broken by every mutant.
 */
export async function teeth(o: TeethOptions): Promise<{ matrix: TeethMatrix; exitCode: number }> {
  const names = o.mutants ?? ALL_MUTANTS.map((m) => m.name);
  const unknown = names.filter((n) => !ALL_MUTANTS.some((m) => m.name === n));
  if (unknown.length > 0) throw configError(`no mutant is named ${unknown.join(", ")}`);
  mkdirSync(o.reports, { recursive: true });
  const { judged: controlRules, ...control } = await judge(undefined, o, path.join(o.reports, "reference"));
  if (control.notRun !== undefined) throw configError(`the reference broker's run did not finish, so no mutant can be judged: ${control.notRun}`);
  if (control.fails.length > 0) throw configError(`the reference broker fails ${control.fails.join(", ")} on this selection, so no mutant's failure there shows anything: see ${path.join(o.reports, "reference")}`);
  const selected = controlRules.filter((r) => r.verdict === "pass").map((r) => r.id);
  o.write(`teeth: the reference broker passes ${selected.length} rule(s) of the selection in ${(control.durationMs / 1000).toFixed(1)} s; ${names.length} mutants next, ${o.jobs} at a time\n`);
  const runs: TeethRun[] = new Array(names.length);
  let done = 0;
  await inFlight(names.length, o.jobs, async (i) => {
    const { judged: _, ...run } = await judge(names[i], o, path.join(o.reports, names[i]!));
    runs[i] = run;
    done++;
    // A progress line per mutant: the whole catalogue takes minutes.
    const found = run.notRun !== undefined ? `NOT RUN: ${run.notRun}` : run.fails.length > 0 ? `breaks ${run.fails.join(", ")}` : "breaks nothing selected";
    o.write(`[${String(done).padStart(String(names.length).length)}/${names.length}] ${run.broker}: ${found} (${(run.durationMs / 1000).toFixed(1)} s)\n`);
  });
  const reasons = loadTeeth().unbroken;
  const levels = new Map(loadRules().rules.map((r) => [r.id, r.level]));
  const rules = selected.map((id) => {
    const brokenBy = runs.filter((r) => r.fails.includes(id)).map((r) => r.broker);
    return { id, level: levels.get(id) ?? "MUST", brokenBy, reason: brokenBy.length === 0 ? reasons[id] : undefined };
  });
  // A rule the in-process control cannot judge (a kill at a process's start) cannot be broken here either.
  const notJudged = controlRules.filter((r) => r.verdict === "not-applicable").map((r) => ({ id: r.id, level: levels.get(r.id) ?? "MUST", why: r.reason ?? "not applicable in-process", reason: reasons[r.id] }));
  const matrix: TeethMatrix = { tags: o.tags, runs: [control, ...runs], rules, notJudged };
  writeFileSync(path.join(o.reports, "teeth.json"), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(path.join(o.reports, "teeth.md"), teethMarkdown(matrix));
  return { matrix, exitCode: teethExitCode(matrix) };
}

/** 2 when a mutant's run gave no verdicts (the matrix is incomplete: the harness's problem), 1 when a MUST rule has neither a mutant nor a reason, else 0. */
export function teethExitCode(m: TeethMatrix): number {
  if (m.runs.some((r) => r.notRun !== undefined)) return 2;
  return [...m.rules.filter((r) => r.brokenBy.length === 0), ...m.notJudged].some((r) => r.level === "MUST" && r.reason === undefined) ? 1 : 0;
}

/** The console's view: each rule with the mutants that break it, then the rules none breaks, with the reason or its absence. */
export function teethText(m: TeethMatrix): string {
  const out = [`Rules broken by a mutant (${m.rules.filter((r) => r.brokenBy.length > 0).length} of ${m.rules.length}${m.tags ? `, tags ${m.tags}` : ""}):`];
  for (const r of m.rules.filter((x) => x.brokenBy.length > 0)) out.push(`  ${r.id.padEnd(10)} ${r.brokenBy.join(", ")}`);
  const none = m.rules.filter((r) => r.brokenBy.length === 0);
  out.push("", `Rules no mutant breaks (${none.length}):`);
  for (const r of none) out.push(`  ${r.id.padEnd(10)} ${r.level}${r.reason ? `: ${r.reason}` : r.level === "MUST" ? `: NO TEETH, and no reason in ${TEETH_FILE}` : ""}`);
  if (m.notJudged.length > 0) {
    out.push("", `Rules the in-process runs cannot judge (${m.notJudged.length}):`);
    for (const r of m.notJudged) out.push(`  ${r.id.padEnd(10)} ${r.level} (${r.why})${r.reason ? `: ${r.reason}` : r.level === "MUST" ? `: NO TEETH SHOWN, and no reason in ${TEETH_FILE}` : ""}`);
  }
  const unfinished = m.runs.filter((r) => r.notRun !== undefined);
  if (unfinished.length > 0) out.push("", `Mutants whose run did not finish (the matrix lacks them): ${unfinished.map((r) => `${r.broker}: ${r.notRun}`).join("; ")}`);
  const toothless = [...none, ...m.notJudged].filter((r) => r.level === "MUST" && r.reason === undefined).length;
  out.push("", toothless > 0 ? `teeth: ${toothless} MUST rule(s) with neither a mutant that breaks them nor a reason in ${TEETH_FILE}` : "teeth: every MUST rule selected is broken by a mutant or has its reason");
  return `${out.join("\n")}\n`;
}

/** teeth.md: the matrix itself, mutants as rows and the rules they break as marks, for a reader who wants the whole picture. */
export function teethMarkdown(m: TeethMatrix): string {
  const broken = m.rules.filter((r) => r.brokenBy.length > 0).map((r) => r.id);
  const mutants = m.runs.slice(1);
  return [
    `# Teeth${m.tags ? ` (tags \`${m.tags}\`)` : ""}`,
    "",
    "Which mutant breaks which rule (`lomi-conformance teeth`). A row per mutant, a column per rule some mutant breaks.",
    "",
    `| mutant | ${broken.join(" | ")} |`,
    `|---|${broken.map(() => ":-:").join("|")}|`,
    ...mutants.map((r) => `| ${r.broker} | ${broken.map((id) => (r.fails.includes(id) ? "✗" : "")).join(" | ")} |`),
    "",
    "## Rules no mutant breaks",
    "",
    ...m.rules.filter((r) => r.brokenBy.length === 0).map((r) => `- ${r.id} (${r.level}): ${r.reason ?? "no reason written"}`),
    "",
    ...(m.notJudged.length > 0 ? ["## Rules the in-process runs cannot judge", "", ...m.notJudged.map((r) => `- ${r.id} (${r.level}, ${r.why}): ${r.reason ?? "no reason written"}`), ""] : []),
  ].join("\n");
}
