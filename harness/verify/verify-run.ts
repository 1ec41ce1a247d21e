import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { configError } from "../harness-error.js";
import { historyOf, historyFileName, parseRecords } from "../history/format.js";
import { checkHistory } from "../oracles/index.js";
import { historyJudgement } from "../report/attachments.js";
import { recordedSummary } from "../report/conclude-run.js";
import { judgeRun } from "../report/judge-run.js";
import { readMessages } from "../report/message-stream.js";
import { kitIdentity, provenanceSchema, rulesDigest, shortDigest } from "../report/provenance.js";
import { RUN_RECORD_FILE } from "../report/run-record.js";
import { titleOf } from "../report/run-summary.js";
import type { ScenarioResult } from "../report/scenario-results.js";
import { jsonReport, reportMakers } from "../report/write-reports.js";
import { loadRules } from "../rules.js";
import { scenarioCatalogue, scenarioKey } from "../run/feature-catalogue.js";
import { attemptSeed } from "../run/run-parameters.js";
import { messageOf } from "../../protocol/errors.js";
import {
  evidenceDigest,
  evidenceSchema,
  judgedScenarios,
  judgeStream,
  runInputsOf,
  streamFiles,
  type Evidence,
  type JudgedStream,
} from "../report/evidence.js";

/** What `verify` found: each disagreement in a line naming what disagrees, and what was derived again. */
export interface Verification {
  disagreements: string[];
  /** The run's headline, as its evidence gives it. */
  title: string;
  scenarios: number;
  histories: number;
  streams: number;
  digest: string;
}

const MAX_PER_FILE = 8;
const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? "nothing";
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

/** Where two JSON values differ, as paths (rules[IDEM-01].verdict: an array of named items is indexed by its id or name). */
function differences(expected: unknown, actual: unknown, at: string, out: string[], limit: number): void {
  if (out.length >= limit || isDeepStrictEqual(expected, actual)) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const label = (x: unknown, i: number) =>
      x && typeof x === "object" && ("id" in x || "name" in x)
        ? String((x as { id?: unknown; name?: unknown }).id ?? (x as { name: unknown }).name)
        : String(i);
    if (expected.length !== actual.length) {
      out.push(`${at}: holds ${actual.length} item(s); the evidence gives ${expected.length}`);
      return;
    }
    expected.forEach((x, i) => differences(x, actual[i], `${at}[${label(x, i)}]`, out, limit));
    return;
  }
  if (expected && actual && typeof expected === "object" && typeof actual === "object") {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)]))
      differences((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], at ? `${at}.${key}` : key, out, limit);
    return;
  }
  out.push(`${at}: says ${shown(actual)}; the evidence gives ${shown(expected)}`);
}

/** What a badge claims: its title (what a reader hovering over it sees) and the words it shows. */
const badgeClaim = (svg: string) =>
  `${/<title>([^<]*)<\/title>/.exec(svg)?.[1] ?? "(no title)"}" showing "${[...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(" | ")}`;

/** The evidence a reports folder records, or why it cannot be verified here (exit 2: another kit, no such run). */
function readRecorded(dir: string): { raw: Record<string, unknown>; evidence: Evidence | undefined } {
  const file = path.join(dir, RUN_RECORD_FILE);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw configError(
      `${file}: ${existsSync(file) ? `does not read as JSON (${messageOf(error)})` : "no such file; give the --reports folder of a conformance run"}`,
    );
  }
  const evidence = evidenceSchema.safeParse(raw.evidence);
  const provenance = provenanceSchema.safeParse(raw.provenance);
  if (provenance.success) {
    const kit = kitIdentity();
    const rules = rulesDigest();
    if (provenance.data.kit.version !== kit.version || provenance.data.rules.digest !== rules.digest) {
      throw configError(
        `${dir} was made by ${provenance.data.kit.name} ${provenance.data.kit.version} with the rules ${shortDigest(provenance.data.rules.digest)}; this is ${kit.name} ${kit.version} with the rules ${shortDigest(rules.digest)}: verify it with the kit that made it`,
      );
    }
  }
  return { raw, evidence: evidence.success ? evidence.data : undefined };
}

/** Each scenario's history judged again, against what its run recorded of that judgement (oracles, triggers) and its seed. */
function historyDisagreements(dir: string, evidence: Evidence, streams: readonly JudgedStream[], out: string[]): number {
  const { inputs } = evidence;
  const oracles = inputs.invocation?.oracles !== false;
  let judged = 0;
  streams.forEach(({ results, tries }, i) => {
    const repetition = i + 1;
    for (const result of results) {
      const relative = path.posix.join(inputs.histories.split(path.sep).join("/"), historyFileName(result, repetition));
      const recordedSeed = tries.get(scenarioKey(result))?.at(-1)?.seed;
      const attempts = tries.get(scenarioKey(result))?.length ?? 1;
      const seed = attemptSeed({ seed: inputs.seed, replaySeed: inputs.replaySeed, repetition }, scenarioKey(result), attempts - 1);
      if (recordedSeed !== undefined && recordedSeed !== seed)
        out.push(`${MESSAGES(repetition)}: "${result.name}" ran on seed ${recordedSeed}; the run's seed ${inputs.seed} gives ${seed}`);
      if (!(relative in evidence.files)) {
        if (result.verdict === "pass" && oracles) out.push(`${relative}: no history of "${result.name}", which passed: its pass cannot be judged again`);
        continue;
      }
      const file = path.resolve(dir, relative);
      if (!existsSync(file)) continue; // said with the files
      let records;
      try {
        records = parseRecords(readFileSync(file, "utf8"), relative);
      } catch (error) {
        out.push(`${relative}: ${messageOf(error)}`);
        continue;
      }
      judged++;
      const header = records.find((r) => r.type === "header");
      if (header?.type === "header" && header.seed !== undefined && header.seed !== seed)
        out.push(`${relative}: its header says seed ${header.seed}; the run's seed ${inputs.seed} gives ${seed}`);
      if (!oracles) continue;
      disagreeWithRun(relative, result, historyJudgement(checkHistory(historyOf(records)), records), out);
    }
  });
  return judged;
}

const MESSAGES = (repetition: number) => streamFiles(repetition).at(-1)!;

/** What the oracles find in a history again, against what the run attached for that scenario. */
function disagreeWithRun(relative: string, result: ScenarioResult, again: ReturnType<typeof historyJudgement>, out: string[]): void {
  const recorded = result.failure?.oracles ?? [];
  const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
  if (!isDeepStrictEqual(json(again.found), json(recorded))) {
    const said = (found: ReadonlyArray<{ id: string; rules: readonly string[] }>) =>
      found.length === 0 ? "nothing broken" : found.map((f) => `${f.id} (${f.rules.join(", ")})`).join("; ");
    const same = said(again.found) === said(recorded) ? " (the same oracles, other findings or records)" : "";
    out.push(`${relative}: judged again, the oracles find ${said(again.found)}; the run recorded ${said(recorded)} for "${result.name}"${same}`);
  }
  const triggers = result.oracleJudged ?? {};
  if (!isDeepStrictEqual(again.judged, triggers)) {
    const changed = [...new Set([...Object.keys(again.judged), ...Object.keys(triggers)])].filter((id) => again.judged[id] !== triggers[id]);
    out.push(
      `${relative}: judged again, ${changed.map((id) => `${id} ${again.judged[id] ?? 0} time(s) where the run recorded ${triggers[id] ?? 0}`).join(", ")} ("${result.name}")`,
    );
  }
  const unknown = (result.oraclesUnknown ?? []).map((u) => u.split(" ")[0]);
  if (
    !isDeepStrictEqual(
      again.unknown.map((u) => u.id),
      unknown,
    )
  )
    out.push(`${relative}: judged again, the oracles that fail on it are ${shown(again.unknown.map((u) => u.id))}; the run recorded ${shown(unknown)}`);
}

/**
 * `lomi-conformance verify DIR`: every verdict of the run in DIR derived again, offline, from what it
 * recorded (its message streams, each scenario's history, its seed and inputs) by the functions the
 * run used, and held to what its reports say: conformance.json, the badge, junit.xml, conformance.md
 * and conformance.html. Each file of evidence must be the one the run recorded (by sha256).
 */
export function verifyRun(dir: string): Verification {
  const { raw, evidence } = readRecorded(dir);
  const headline = typeof raw.headline === "string" ? raw.headline : "(no headline)";
  if (!evidence) {
    return {
      disagreements: [
        `${RUN_RECORD_FILE}: records no evidence (${raw.verdict === "not-run" ? "the run never judged anything: " : ""}${headline}); only a run of this kit that finished, or was stopped, can be verified`,
      ],
      title: headline,
      scenarios: 0,
      histories: 0,
      streams: 0,
      digest: "none",
    };
  }
  const out: string[] = [];
  // The files first: what was changed since the run, named.
  for (const [relative, digest] of Object.entries(evidence.files)) {
    const file = path.resolve(dir, relative);
    if (!existsSync(file)) out.push(`${relative}: missing (the run recorded it as evidence)`);
    else if (sha256(readFileSync(file)) !== digest)
      out.push(`${relative}: changed since the run (its sha256 is not the ${shortDigest(digest)}… the run recorded)`);
  }
  const provenance = provenanceSchema.safeParse(raw.provenance);
  if (evidenceDigest(evidence.inputs, evidence.files, provenance.success ? provenance.data : undefined) !== evidence.digest) {
    out.push(`${RUN_RECORD_FILE}: its evidence digest is not that of what it records (its inputs, file digests or provenance were changed)`);
  }
  const streams = streamFiles(evidence.inputs.repeat).flatMap((f) => (existsSync(path.join(dir, f)) ? [judgeStream(readMessages(path.join(dir, f)))] : []));
  if (streams.length === 0) return { disagreements: out, title: headline, scenarios: 0, histories: 0, streams: 0, digest: evidence.digest };

  // The verdicts again, from the streams and the recorded inputs, by the run's own functions.
  const suite = scenarioCatalogue();
  const judged = judgedScenarios(streams, { unfinished: evidence.inputs.unfinished, merged: evidence.inputs.shards !== undefined }, suite);
  const inputs = runInputsOf(evidence.inputs, loadRules().rules, suite, judged);
  const again = judgeRun(inputs);
  const run = recordedSummary(again.run, inputs.shards, provenance.success ? provenance.data : undefined, evidence);
  const json: string[] = [];
  differences(JSON.parse(JSON.stringify(jsonReport(run))), raw, "", json, MAX_PER_FILE);
  out.push(...json.map((d) => `${RUN_RECORD_FILE} ${d}`));
  for (const [file, make] of reportMakers(run, judged.results, again.baselinedScenarioReason)) {
    if (file === RUN_RECORD_FILE) continue;
    const at = path.join(dir, file);
    if (!existsSync(at)) {
      out.push(`${file}: missing`);
      continue;
    }
    const written = readFileSync(at, "utf8");
    const made = make();
    if (written === made) continue;
    out.push(
      file.endsWith(".svg")
        ? `${file}: says "${badgeClaim(written)}"; the evidence gives "${badgeClaim(made)}"`
        : `${file}: differs from what the evidence gives (first at line ${firstDifferentLine(written, made)})`,
    );
  }
  const histories = historyDisagreements(dir, evidence, streams, out);
  return { disagreements: out, title: titleOf(run, (t) => t), scenarios: judged.results.length, histories, streams: streams.length, digest: evidence.digest };
}

const firstDifferentLine = (a: string, b: string) => {
  const [x, y] = [a.split("\n"), b.split("\n")];
  const i = x.findIndex((line, n) => line !== y[n]);
  return (i < 0 ? Math.min(x.length, y.length) : i) + 1;
};
