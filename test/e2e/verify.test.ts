import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { conformance } from "../support/runs.js";

/**
 * `lomi-conformance verify DIR` on a run whose oracles found a defect (a mutant that dispatches a
 * refused request): the untouched reports verify; a verdict edited in conformance.json, a badge
 * made green, a history line changed, or an input of the judgement changed each fail it, naming
 * what disagrees. (Over stdio, verify runs in the flaky test and, from an installed kit, after the
 * GitHub Action's run in the adopter test.)
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-verify-"));
const run = path.join(dir, "run");
const verify = (reports: string) => conformance(["verify", reports]);

/** A copy of the run's reports, edited. */
function edited(name: string, edit: (reports: string) => void): string {
  const copy = path.join(dir, name);
  cpSync(run, copy, { recursive: true });
  edit(copy);
  return copy;
}
const rewrite = (file: string, change: (text: string) => string) => {
  const text = readFileSync(file, "utf8");
  const changed = change(text);
  assert.notEqual(changed, text, `the edit changed nothing in ${file}`);
  writeFileSync(file, changed);
};

test("verify: an untouched run verifies; an edited verdict, badge, history line or judgement input is named and fails it", async () => {
  const made = await conformance(["--mutant", "rev-stale-revision-dispatched", "--tags", "@REV-01", "--reports", run]);
  assert.equal(made.code, 1, made.output.slice(-2000));
  const record = JSON.parse(readFileSync(path.join(run, "conformance.json"), "utf8")) as { rules: Array<{ id: string; verdict: string; scenarios: Array<{ name: string; failure?: { oracles?: unknown[] } }> }>; evidence: { files: Record<string, string> } };
  const found = record.rules.find((r) => r.id === "REV-01")!.scenarios.find((s) => s.failure?.oracles);
  assert.ok(found, "an oracle's finding is among the verdicts verify derives again from the histories");

  const untouched = await verify(run);
  assert.equal(untouched.code, 0, untouched.output);
  const histories = Object.keys(record.evidence.files).filter((f) => f.startsWith("histories/")).length;
  assert.match(untouched.output, new RegExp(`^lomi-conformance verify: VERIFIED: every verdict in .* derives from its evidence \\(\\d+ scenario\\(s\\), ${histories} histories judged again, 1 message stream\\(s\\)\\), and every report says so$`, "m"));

  const verdict = await verify(
    edited("verdict", (r) => rewrite(path.join(r, "conformance.json"), (t) => t.replace(/("id": "REV-01",[\s\S]*?"verdict": )"fail"/, '$1"pass"'))),
  );
  assert.equal(verdict.code, 1, verdict.output);
  assert.match(verdict.output, /^lomi-conformance verify: NOT VERIFIED: 1 disagreement\(s\) between .* and its evidence:$/m);
  assert.match(verdict.output, /^ {2}conformance\.json rules\[REV-01\]\.verdict: says "pass"; the evidence gives "fail"$/m);

  const badge = await verify(edited("badge", (r) => rewrite(path.join(r, "conformance.svg"), (t) => t.replaceAll("not conformant", "conformant").replace("#e05d44", "#4c1"))));
  assert.equal(badge.code, 1, badge.output);
  assert.match(badge.output, /^ {2}conformance\.svg: says "lomi conformance: conformant over in-process [^"]*" showing "lomi conformance \| conformant over in-process \d+\/\d+"; the evidence gives "lomi conformance: not conformant over in-process/m);

  // The history of the scenario the oracle failed, its dispatch in Lomi's ledger taken out: the file no longer is the run's, and judged again it no longer shows the defect.
  const history = await verify(
    edited("history", (r) => {
      const file = readdirSync(path.join(r, "histories")).map((f) => path.join(r, "histories", f)).find((f) => readFileSync(f, "utf8").includes(`"source":"features/`) && readFileSync(f, "utf8").includes(found.name.slice(0, 30).replace(/"/g, '\\"')))!;
      rewrite(file, (t) => t.split("\n").filter((line) => !line.startsWith('{"type":"ledger"')).join("\n"));
    }),
  );
  assert.equal(history.code, 1, history.output);
  assert.match(history.output, /^ {2}histories\/[^:]+\.jsonl: changed since the run \(its sha256 is not the [0-9a-f]{12}… the run recorded\)$/m);
  assert.match(history.output, /^ {2}histories\/[^:]+\.jsonl: judged again, the oracles find nothing broken; the run recorded effects-requested \(REV-01\) for "/m);

  // An input of the judgement edited (the level), everything else as it was: the evidence no longer gives its digest.
  const level = await verify(edited("level", (r) => rewrite(path.join(r, "conformance.json"), (t) => t.replace('"level": "must",\n    "requireAll"', '"level": "may",\n    "requireAll"'))));
  assert.equal(level.code, 1, level.output);
  assert.match(level.output, /^ {2}conformance\.json: its evidence digest is not that of what it records \(its inputs, file digests or provenance were changed\)$/m);

  const nothing = await verify(path.join(dir, "nowhere"));
  assert.equal(nothing.code, 2);
  assert.match(nothing.output, /^lomi-conformance verify: .*conformance\.json: no such file; give the --reports folder of a conformance run$/m);
});
