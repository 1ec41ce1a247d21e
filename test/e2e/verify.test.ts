import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { conformance } from "../support/runs.js";

/**
 * `lomi-conformance verify DIR` on a run whose oracles found a defect (a mutant that dispatches a
 * refused request), in-process and over stdio: the untouched reports verify; a verdict edited in
 * conformance.json, a badge made green, a history line changed, or an input of the judgement
 * changed each fail it, naming what disagrees. (From an installed kit, verify runs after the GitHub
 * Action's run in the adopter test.)
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-verify-"));
const verify = (reports: string) => conformance(["verify", reports]);

/** A copy of the run's reports, edited. */
function edited(run: string, name: string, edit: (reports: string) => void): string {
  const copy = `${run}-${name}`;
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
/** conformance.json edited as JSON, written back as the run writes it. */
const editJson = <T>(file: string, change: (json: T) => unknown) =>
  rewrite(file, (text) => {
    const json = JSON.parse(text) as T;
    change(json);
    return `${JSON.stringify(json, null, 2)}\n`;
  });

/** The run `broker` makes of REV-01's scenarios (in `name`), verified untouched and edited; `profile` as the badge names it. */
async function verifiesAndRefusesEdits(name: string, broker: string[], profile: string): Promise<void> {
  const run = path.join(dir, name);
  const made = await conformance([...broker, "--tags", "@REV-01", ...TIMEOUT_ARGS, "--reports", run]);
  assert.equal(made.code, 1, made.output.slice(-2000));
  const record = JSON.parse(readFileSync(path.join(run, "conformance.json"), "utf8")) as {
    rules: Array<{ id: string; verdict: string; scenarios: Array<{ name: string; failure?: { oracles?: Array<{ id: string }> } }> }>;
    evidence: { files: Record<string, string> };
  };
  const found = record.rules.find((r) => r.id === "REV-01")!.scenarios.find((s) => s.failure?.oracles);
  assert.ok(found, "an oracle's finding is among the verdicts verify derives again from the histories");

  const untouched = await verify(run);
  assert.equal(untouched.code, 0, untouched.output);
  const histories = Object.keys(record.evidence.files).filter((f) => f.startsWith("histories/")).length;
  assert.match(
    untouched.output,
    new RegExp(
      `^lomi-conformance verify: VERIFIED: every verdict in .* derives from its evidence \\(\\d+ scenario\\(s\\), ${histories} histories judged again, 1 message stream\\(s\\)\\), and every report says so$`,
      "m",
    ),
  );

  // The rule's own verdict made a pass, its scenarios left as they were.
  const verdict = await verify(
    edited(run, "verdict", (r) =>
      editJson(
        path.join(r, "conformance.json"),
        (json: { rules: Array<{ id: string; verdict: string }> }) => (json.rules.find((x) => x.id === "REV-01")!.verdict = "pass"),
      ),
    ),
  );
  assert.equal(verdict.code, 1, verdict.output);
  assert.match(verdict.output, /^lomi-conformance verify: NOT VERIFIED: 1 disagreement\(s\) between .* and its evidence:$/m);
  assert.match(verdict.output, /^ {2}conformance\.json rules\[REV-01\]\.verdict: says "pass"; the evidence gives "fail"$/m);

  const badge = await verify(
    edited(run, "badge", (r) => rewrite(path.join(r, "conformance.svg"), (t) => t.replaceAll("not conformant", "conformant").replace("#e05d44", "#4c1"))),
  );
  assert.equal(badge.code, 1, badge.output);
  assert.match(
    badge.output,
    new RegExp(
      `^ {2}conformance\\.svg: says "lomi conformance: conformant over ${profile} [^"]*" showing "lomi conformance \\| conformant over ${profile} \\d+/\\d+"; the evidence gives "lomi conformance: not conformant over ${profile}`,
      "m",
    ),
  );

  // The history of the scenario the oracle failed, its dispatch in Lomi's ledger taken out: the file no longer is the run's, and judged again it no longer shows the defect.
  const history = await verify(
    edited(run, "history", (r) => {
      const file = readdirSync(path.join(r, "histories"))
        .map((f) => path.join(r, "histories", f))
        .find(
          (f) => readFileSync(f, "utf8").includes(`"source":"features/`) && readFileSync(f, "utf8").includes(found.name.slice(0, 30).replace(/"/g, '\\"')),
        )!;
      rewrite(file, (t) =>
        t
          .split("\n")
          .filter((line) => !line.startsWith('{"type":"ledger"'))
          .join("\n"),
      );
    }),
  );
  assert.equal(history.code, 1, history.output);
  assert.match(history.output, /^ {2}histories\/[^:]+\.jsonl: changed since the run \(its sha256 is not the [0-9a-f]{12}… the run recorded\)$/m);
  const oracle = found.failure!.oracles![0]!.id;
  assert.match(
    history.output,
    new RegExp(`^ {2}histories/[^:]+\\.jsonl: judged again, the oracles find nothing broken; the run recorded ${oracle} \\(REV-01\\) for "`, "m"),
  );

  // An input of the judgement edited (the level), everything else as it was: the evidence no longer gives its digest.
  const level = await verify(
    edited(run, "level", (r) =>
      editJson(path.join(r, "conformance.json"), (json: { evidence: { inputs: { level: string } } }) => (json.evidence.inputs.level = "may")),
    ),
  );
  assert.equal(level.code, 1, level.output);
  assert.match(
    level.output,
    /^ {2}conformance\.json: its evidence digest is not that of what it records \(its inputs, file digests or provenance were changed\)$/m,
  );
}

test("verify: an untouched in-process run verifies; an edited verdict, badge, history line or judgement input is named and fails it", async () => {
  await verifiesAndRefusesEdits("in-process", ["--mutant", "rev-stale-revision-dispatched"], "in-process");
});

test("verify: the same over stdio, the mutant a broker process", async () => {
  await verifiesAndRefusesEdits("stdio", ["--broker-cmd", "node mutants/lomi-mutant.js rev-stale-revision-dispatched"], "stdio without fault hooks");
});

test("verify: a folder with no run in it cannot be verified (exit 2)", async () => {
  const nothing = await verify(path.join(dir, "nowhere"));
  assert.equal(nothing.code, 2);
  assert.match(nothing.output, /^lomi-conformance verify: .*conformance\.json: no such file; give the --reports folder of a conformance run$/m);
});
