import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ALL_MUTANTS } from "../../mutants/index.js";
import type { Mutant } from "../../mutants/mutant.js";
import { picksOf, type SeenCall } from "../../mutants/picks.js";
import { reopensOnly } from "../../mutants/doctored-store.js";
import type { Envelope } from "../../protocol/envelope.js";
import { historyFileName, type HistoryRecord } from "../history/format.js";
import { scenarioCatalogue } from "../run/feature-catalogue.js";
import { kitPath } from "../../protocol/kit-root.js";
import { configError } from "../harness-error.js";
import { inFlight } from "../connection/in-flight.js";
import { loadRules, type Rule } from "../rules.js";
import { Judges } from "../run/judges.js";
import { markdownCell } from "../text/markdown-cell.js";

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
  /** The rules the mutant declares it breaks (mutants/) that these runs can judge: what its run is held to. */
  declares?: string[];
  /** Declared rules the in-process control cannot judge (a kill at a process's start): shown over stdio instead. */
  elsewhere?: string[];
  /** The scenarios that failed on it (those that kill it), each with the rules its failure blamed. */
  killedBy?: Array<{ scenario: string; at: string; rules: string[] }>;
  /** When the run judged only some scenarios: which, and why the others cannot show the defect. */
  scope?: string;
}

/** A mutant's run held to its declaration: rules it failed that it does not declare, and whether it failed any it does. */
export function precisionOf(r: TeethRun): { outside: string[]; missed: boolean } {
  const declares = r.declares ?? [];
  return { outside: r.fails.filter((id) => !declares.includes(id)), missed: declares.length > 0 && !r.fails.some((id) => declares.includes(id)) };
}

/** A finished run that fails a rule it does not declare, or none it does. */
const imprecise = (r: TeethRun) => {
  const { outside, missed } = precisionOf(r);
  return r.notRun === undefined && (outside.length > 0 || missed);
};

/** A scenario that fails a rule in the runs of some mutants: where the rule's teeth are. */
export interface RuleKill {
  scenario: string;
  at: string;
  /** The mutants whose runs it fails the rule in. */
  mutants: string[];
}

export interface TeethMatrix {
  tags: string | undefined;
  runs: TeethRun[];
  /** Per selected rule: the mutants that break it, and the scenarios that fail it in their runs. */
  rules: Array<{ id: string; level: Rule["level"]; brokenBy: string[]; killedBy: RuleKill[]; reason: string | undefined }>;
  /** Rules the in-process control could not judge (not applicable there), with the reason docs/teeth.json gives. */
  notJudged: Array<{ id: string; level: Rule["level"]; why: string; reason: string | undefined }>;
  /** Named mutants (--mutant): the matrix judges only the rules they declare. */
  declaredOnly?: boolean;
}

export interface TeethOptions {
  tags: string | undefined;
  /** Runs side by side, on as many long-lived processes that judge their runs in-process, one after another (harness/run/judges.ts). */
  jobs: number;
  reports: string;
  /** Names of the mutants to run (default: every one a run can name). */
  mutants: readonly string[] | undefined;
  seed: number;
  write: (text: string) => void;
}

/** What teeth reads of a run's conformance.json: each rule's verdict and the scenarios that failed it. */
const reportedRun = z.object({
  rules: z.array(
    z.object({
      id: z.string(),
      verdict: z.string(),
      reason: z.string().optional(),
      scenarios: z.array(z.object({ name: z.string(), uri: z.string(), line: z.number().optional(), verdict: z.string() })),
    }),
  ),
});
type ReportedRule = z.infer<typeof reportedRun>["rules"][number];

function readRun(dir: string): ReportedRule[] | undefined {
  const file = path.join(dir, "conformance.json");
  if (!existsSync(file)) return undefined;
  const parsed = reportedRun.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return parsed.success ? parsed.data.rules : undefined;
}

/** Kills gathered by scenario (its file:line), each scenario once in the order first seen, with the names (rules or mutants) seen with it. */
function byScenario(kills: Iterable<{ scenario: string; at: string; name: string }>): Array<{ scenario: string; at: string; names: string[] }> {
  const found = new Map<string, { scenario: string; at: string; names: string[] }>();
  for (const { scenario, at, name } of kills) {
    const known = found.get(at) ?? { scenario, at, names: [] };
    if (!known.names.includes(name)) known.names.push(name);
    found.set(at, known);
  }
  return [...found.values()];
}

/** The scenarios that failed, each with the rules it failed. */
function killers(rules: readonly ReportedRule[]): NonNullable<TeethRun["killedBy"]> {
  const failed = rules
    .filter((r) => r.verdict === "fail")
    .flatMap((r) => r.scenarios.filter((x) => x.verdict === "fail").map((x) => ({ scenario: x.name, at: `${x.uri}:${x.line ?? "?"}`, name: r.id })));
  return byScenario(failed).map(({ names, ...k }) => ({ ...k, rules: names }));
}

/** The scenarios that fail rule `id` in the mutants' runs, by file and line, each with the mutants it fails the rule in. */
export function ruleKillers(id: string, runs: readonly TeethRun[]): RuleKill[] {
  const kills = runs.flatMap((r) => (r.killedBy ?? []).filter((k) => k.rules.includes(id)).map((k) => ({ scenario: k.scenario, at: k.at, name: r.broker })));
  return byScenario(kills)
    .map(({ names, ...k }) => ({ ...k, mutants: names }))
    .sort((a, b) => a.at.localeCompare(b.at, "en", { numeric: true }));
}

/** Rules some mutant breaks in one scenario only: one scenario stands between the rule and a broker that breaks it. */
export const thinRules = (m: TeethMatrix) => m.rules.filter((r) => r.killedBy.length === 1);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One run of the selection against a mutant (or the reference broker), on a judging process, its reports in `dir`; with the rules its report judged. */
async function judge(
  judges: Judges,
  mutant: string | undefined,
  o: TeethOptions,
  dir: string,
  extra: readonly string[] = [],
): Promise<TeethRun & { judged: ReportedRule[] }> {
  const started = Date.now();
  const args = ["--reports", dir, "--seed", String(o.seed), ...(o.tags ? ["--tags", o.tags] : []), ...(mutant ? ["--mutant", mutant] : []), ...extra];
  const { code, output } = await judges.run(args);
  const reported = readRun(dir);
  const base = { broker: mutant ?? CONTROL, exitCode: code, durationMs: Date.now() - started };
  // Why a run gave no verdicts: the last lines it wrote, where the command says why.
  if (code === 2 || reported === undefined)
    return { ...base, fails: [], judged: [], notRun: output.trim().split("\n").slice(-3).join(" ") || `see its reports in ${dir}` };
  return { ...base, fails: reported.filter((r) => r.verdict === "fail").map((r) => r.id), killedBy: killers(reported), judged: reported };
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
  // The control keeps every scenario's history: a mutant that says where it acts (the calls it picks, a reopening) can show itself only in the scenarios that hold one.
  const histories = path.join(o.reports, "reference-histories");
  const judges = new Judges(o.jobs);
  try {
    return await judgeAll(judges, o, names, histories);
  } finally {
    await judges.close();
  }
}

/** teeth's runs on its judging processes: the control on the first, then the mutants `o.jobs` at a time; the matrix written. */
async function judgeAll(judges: Judges, o: TeethOptions, names: readonly string[], histories: string): Promise<{ matrix: TeethMatrix; exitCode: number }> {
  const { judged: controlRules, killedBy: _k, ...control } = await judge(judges, undefined, o, path.join(o.reports, "reference"), ["--histories", histories]);
  if (control.notRun !== undefined) throw configError(`the reference broker's run did not finish, so no mutant can be judged: ${control.notRun}`);
  if (control.fails.length > 0)
    throw configError(
      `the reference broker fails ${control.fails.join(", ")} on this selection, so no mutant's failure there shows anything: see ${path.join(o.reports, "reference")}`,
    );
  const mutants = names.map((n) => ALL_MUTANTS.find((m) => m.name === n)!);
  // Named mutants are judged on what they declare; the whole catalogue on every rule the control passes.
  const declaredOnly = o.mutants !== undefined;
  const declared = new Set(mutants.flatMap((m) => m.breaks));
  const selected = controlRules.filter((r) => r.verdict === "pass" && (!declaredOnly || declared.has(r.id))).map((r) => r.id);
  // Each mutant is held to the declared rules this selection judges: the control passed them (a rule not applicable in-process is shown over stdio).
  const judgedHere = new Set(controlRules.filter((r) => r.verdict === "pass").map((r) => r.id));
  const unjudged = new Set(controlRules.filter((r) => r.verdict === "not-applicable").map((r) => r.id));
  const reference = referenceHistories(histories);
  o.write(
    `teeth: the reference broker passes ${selected.length} rule(s) of the selection in ${(control.durationMs / 1000).toFixed(1)} s; ${names.length} mutants next, ${o.jobs} at a time\n`,
  );
  const runs: TeethRun[] = new Array(names.length);
  const scopes = mutants.map((m) => scopeOf(m, reference));
  // The largest first (a whole-suite run, then by the scenarios in scope): a long run started last would
  // leave the other judging processes idle while it ends. The matrix keeps the catalogue's order.
  const size = (i: number) => scopes[i]?.names.length ?? Number.POSITIVE_INFINITY;
  const order = mutants.map((_, i) => i).sort((a, b) => size(b) - size(a) || a - b);
  let done = 0;
  await inFlight(names.length, o.jobs, async (k) => {
    const i = order[k]!;
    const m = mutants[i]!;
    const scope = scopes[i];
    const run: TeethRun =
      scope?.names.length === 0
        ? { broker: m.name, exitCode: 0, fails: [], durationMs: 0, killedBy: [], scope: scope.why }
        : await judge(judges, m.name, o, path.join(o.reports, m.name), scope ? ["--name", `^(?:${scope.names.map(escapeRegExp).join("|")})$`] : []).then(
            ({ judged: _, ...r }) => ({ ...r, ...(scope ? { scope: scope.why } : {}) }),
          );
    runs[i] = {
      ...run,
      declares: m.breaks.filter((id) => judgedHere.has(id)),
      ...(m.breaks.some((id) => unjudged.has(id)) ? { elsewhere: m.breaks.filter((id) => unjudged.has(id)) } : {}),
    };
    done++;
    // A progress line per mutant: the whole catalogue takes minutes.
    const { outside, missed } = precisionOf(runs[i]!);
    const held =
      outside.length > 0 ? `; BLAMES RULES IT DOES NOT BREAK: ${outside.join(", ")}` : missed ? `; NONE OF ITS RULES (${m.breaks.join(", ")}) FAILED` : "";
    const found =
      run.notRun !== undefined ? `NOT RUN: ${run.notRun}` : `${run.fails.length > 0 ? `breaks ${run.fails.join(", ")}` : "breaks nothing selected"}${held}`;
    o.write(`[${String(done).padStart(String(names.length).length)}/${names.length}] ${run.broker}: ${found} (${(run.durationMs / 1000).toFixed(1)} s)\n`);
  });
  const reasons = loadTeeth().unbroken;
  const levels = new Map(loadRules().rules.map((r) => [r.id, r.level]));
  const rules = selected.map((id) => {
    const brokenBy = runs.filter((r) => r.fails.includes(id)).map((r) => r.broker);
    return { id, level: levels.get(id) ?? "MUST", brokenBy, killedBy: ruleKillers(id, runs), reason: brokenBy.length === 0 ? reasons[id] : undefined };
  });
  // A rule the in-process control cannot judge (a kill at a process's start) cannot be broken here either.
  const notJudged = controlRules
    .filter((r) => r.verdict === "not-applicable")
    .map((r) => ({ id: r.id, level: levels.get(r.id) ?? "MUST", why: r.reason ?? "not applicable in-process", reason: reasons[r.id] }));
  const matrix: TeethMatrix = { tags: o.tags, runs: [control, ...runs], rules, notJudged, ...(declaredOnly ? { declaredOnly } : {}) };
  writeFileSync(path.join(o.reports, "teeth.json"), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(path.join(o.reports, "teeth.md"), teethMarkdown(matrix));
  return { matrix, exitCode: teethExitCode(matrix) };
}

/**
 * 2 when a mutant's run gave no verdicts (the matrix is incomplete: the harness's problem); 1 when a
 * mutant fails a rule it does not declare or none it does (the kit blames imprecisely, or has no
 * teeth for it), or, over the whole catalogue, a MUST rule has neither a mutant nor a reason; else 0.
 */
export function teethExitCode(m: TeethMatrix): number {
  if (m.runs.some((r) => r.notRun !== undefined)) return 2;
  if (m.runs.slice(1).some(imprecise)) return 1;
  if (m.declaredOnly) return 0;
  return [...m.rules.filter((r) => r.brokenBy.length === 0), ...m.notJudged].some((r) => r.level === "MUST" && r.reason === undefined) ? 1 : 0;
}

/**
 * The scenarios that can show a mutant whose parts each say where they act: a picking session
 * (mutants/rewriting-session.ts, every generated untyped-<code> mutant among them) acts on the calls
 * it picks, a store part made with storeReachedBy (mutants/wrapped-store.ts) through the calls it
 * picks, one made with onReopening (mutants/doctored-store.ts) on a restart's reopening, which
 * in-process follows a crash. A run in which none acts is the reference broker's own under the same
 * seed, so only the scenarios whose reference history holds such a call or crash can show it.
 * Undefined for any other mutant (a policy, or a part that may act anywhere): every scenario may.
 */
function scopeOf(m: Mutant, reference: () => ReferenceHistories): { names: string[]; why: string } | undefined {
  const { session, openStore, policy } = m.parts;
  const none = () => false;
  const reopens = openStore !== undefined && reopensOnly(openStore);
  const sessionPicks = session === undefined ? none : picksOf(session);
  const storePicks = openStore === undefined || reopens ? none : picksOf(openStore);
  if (policy !== undefined || sessionPicks === undefined || storePicks === undefined) return undefined;
  const picks = (call: SeenCall) => sessionPicks(call) || storePicks(call);
  const names = [
    ...new Set(
      reference()
        .filter((s) => s.calls.some(picks) || (reopens && s.crashes))
        .map((s) => s.name),
    ),
  ];
  const where = [
    ...(sessionPicks !== none || storePicks !== none ? ["a call it picks"] : []),
    ...(reopens ? ["a crash (a restart reopens the store)"] : []),
  ].join(" or ");
  return { names, why: `${names.length} scenario(s) whose reference history holds ${where}; no other can show it` };
}

type ReferenceHistories = Array<{ name: string; calls: SeenCall[]; crashes: boolean }>;

/** Each scenario's calls in the control's histories (the reference broker's replies: envelopes), and whether it crashed the broker, read once for every mutant that says where it acts. */
function referenceHistories(histories: string): () => ReferenceHistories {
  let read: ReferenceHistories | undefined;
  return () =>
    (read ??= scenarioCatalogue().flatMap((s) => {
      const file = path.join(histories, historyFileName(s));
      if (!existsSync(file)) return [];
      // Read as the control wrote it, not through the format's schema, which drops an argument named "__proto__" (one a mutant may pick).
      const records = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as HistoryRecord);
      const calls = records.flatMap((r) =>
        r.type === "call"
          ? [
              {
                tool: r.tool,
                args: r.args,
                reply: r.reply.status === "answered" ? { structuredContent: r.reply.structuredContent as Envelope, isError: r.reply.isError } : undefined,
              },
            ]
          : [],
      );
      return [{ name: s.name, calls, crashes: records.some((r) => r.type === "fault" && r.kind === "broker-crash") }];
    }));
}

/** A scenario that kills a rule's mutants, as a line: where it is, its name, and the mutants it fails the rule in. */
const killLine = (k: RuleKill) => `${k.at} ${k.scenario} ← ${k.mutants.join(", ")}`;

/** A broken rule's scenarios, one a line; a rule failed in no scenario says so rather than looking unkilled. */
const killLines = (r: TeethMatrix["rules"][number]) =>
  r.killedBy.length > 0 ? r.killedBy.map((k) => `      ${killLine(k)}`) : ["      no scenario failed it (the run's own finding): see its mutants' reports"];

/**
 * The console's view: each rule with the mutants that break it and the scenarios that fail it in
 * their runs, then the rules none breaks, with the reason or its absence; each mutant with the
 * scenarios that kill it; the thin rules, broken in one scenario only.
 */
export function teethText(m: TeethMatrix): string {
  const broken = m.rules.filter((r) => r.brokenBy.length > 0);
  const out = [
    `Rules broken by a mutant (${broken.length} of ${m.rules.length}${m.tags ? `, tags ${m.tags}` : ""}), each with the scenarios that fail it in its mutants' runs (← those mutants):`,
  ];
  for (const r of broken) out.push(`  ${r.id.padEnd(10)} ${r.brokenBy.join(", ")}`, ...killLines(r));
  const none = m.rules.filter((r) => r.brokenBy.length === 0);
  out.push("", `Rules no mutant breaks (${none.length}):`);
  for (const r of none)
    out.push(`  ${r.id.padEnd(10)} ${r.level}${r.reason ? `: ${r.reason}` : r.level === "MUST" ? `: NO TEETH, and no reason in ${TEETH_FILE}` : ""}`);
  if (m.notJudged.length > 0) {
    out.push("", `Rules the in-process runs cannot judge (${m.notJudged.length}):`);
    for (const r of m.notJudged)
      out.push(
        `  ${r.id.padEnd(10)} ${r.level} (${r.why})${r.reason ? `: ${r.reason}` : r.level === "MUST" ? `: NO TEETH SHOWN, and no reason in ${TEETH_FILE}` : ""}`,
      );
  }
  const unfinished = m.runs.filter((r) => r.notRun !== undefined);
  if (unfinished.length > 0)
    out.push("", `Mutants whose run did not finish (the matrix lacks them): ${unfinished.map((r) => `${r.broker}: ${r.notRun}`).join("; ")}`);
  out.push("", "The scenarios that kill each mutant:", ...m.runs.slice(1).flatMap(killedText));
  const thin = thinRules(m);
  out.push(
    "",
    `Thin rules: broken in one scenario only (${thin.length} of ${broken.length} broken); one more scenario that fails their mutants would make each surer:`,
  );
  out.push(...(thin.length > 0 ? thin.map((r) => `  ${r.id.padEnd(10)} ${r.level} ${killLine(r.killedBy[0]!)}`) : ["  none"]));
  const loose = m.runs.slice(1).filter(imprecise);
  const finished = m.runs.slice(1).filter((r) => r.notRun === undefined);
  out.push(
    "",
    `Precision: ${finished.length - loose.length} of ${finished.length} mutants fail only rules they declare, and at least one of them${loose.length > 0 ? `; not: ${loose.map((r) => r.broker).join(", ")}` : ""}`,
  );
  if (m.declaredOnly) return `${out.join("\n")}\n`;
  const toothless = [...none, ...m.notJudged].filter((r) => r.level === "MUST" && r.reason === undefined).length;
  out.push(
    "",
    toothless > 0
      ? `teeth: ${toothless} MUST rule(s) with neither a mutant that breaks them nor a reason in ${TEETH_FILE}`
      : "teeth: every MUST rule selected is broken by a mutant or has its reason",
  );
  return `${out.join("\n")}\n`;
}

/** A mutant's lines: what it declares, what failed outside that, and each scenario that killed it with the rules it failed. */
function killedText(r: TeethRun): string[] {
  if (r.notRun !== undefined) return [`  ${r.broker}: not run (${r.notRun})`];
  const { outside, missed } = precisionOf(r);
  const verdict = outside.length > 0 ? `blames rules it does not break: ${outside.join(", ")}` : missed ? "none of its declared rules failed" : "precise";
  const head = `  ${r.broker} (declares ${(r.declares ?? []).join(", ") || "nothing judged here"}${r.elsewhere ? `; ${r.elsewhere.join(", ")} only over stdio` : ""}${r.scope ? `; ${r.scope}` : ""}): ${verdict}`;
  const kills = r.killedBy ?? [];
  return [head, ...(kills.length === 0 ? ["      no scenario kills it"] : kills.map((k) => `      ${k.at} ${k.scenario} → ${k.rules.join(", ")}`))];
}

/**
 * teeth.md: the matrix itself, mutants as rows and the rules they break as marks, for a reader who
 * wants the whole picture; then each rule's killing scenarios, and the thin rules among them.
 */
export function teethMarkdown(m: TeethMatrix): string {
  const broken = m.rules.filter((r) => r.brokenBy.length > 0).map((r) => r.id);
  const mutants = m.runs.slice(1);
  const thin = thinRules(m);
  const scenarioCell = (k: RuleKill) => `\`${k.at}\` ${markdownCell(k.scenario)}`;
  return [
    `# Teeth${m.tags ? ` (tags \`${m.tags}\`)` : ""}`,
    "",
    "Which mutant breaks which rule (`lomi-conformance teeth`). A row per mutant, a column per rule some mutant breaks.",
    "",
    `| mutant | ${broken.join(" | ")} |`,
    `|---|${broken.map(() => ":-:").join("|")}|`,
    ...mutants.map((r) => `| ${r.broker} | ${broken.map((id) => (r.fails.includes(id) ? "✗" : "")).join(" | ")} |`),
    "",
    "## The scenarios that kill each rule's mutants",
    "",
    "A row per scenario that fails the rule in a mutant's run: where the rule's teeth are.",
    "",
    "| rule | scenario | the mutants it fails the rule in |",
    "|---|---|---|",
    ...m.rules
      .filter((r) => r.brokenBy.length > 0)
      .flatMap((r) =>
        (r.killedBy.length > 0 ? r.killedBy : [undefined]).map(
          (k, i) => `| ${i === 0 ? r.id : ""} | ${k ? scenarioCell(k) : "no scenario failed it"} | ${(k?.mutants ?? r.brokenBy).join(", ")} |`,
        ),
      ),
    "",
    `## Thin rules: broken in one scenario only (${thin.length} of ${broken.length})`,
    "",
    "One scenario stands between each of these rules and a broker that breaks it: another scenario that fails their mutants would make each surer.",
    "",
    ...(thin.length > 0 ? thin.map((r) => `- ${r.id} (${r.level}): ${scenarioCell(r.killedBy[0]!)} (${r.killedBy[0]!.mutants.join(", ")})`) : ["None."]),
    "",
    "## Rules no mutant breaks",
    "",
    ...m.rules.filter((r) => r.brokenBy.length === 0).map((r) => `- ${r.id} (${r.level}): ${r.reason ?? "no reason written"}`),
    "",
    ...(m.notJudged.length > 0
      ? ["## Rules the in-process runs cannot judge", "", ...m.notJudged.map((r) => `- ${r.id} (${r.level}, ${r.why}): ${r.reason ?? "no reason written"}`), ""]
      : []),
  ].join("\n");
}
