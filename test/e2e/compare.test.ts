import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Comparison } from "../../harness/compare/compare-runs.js";
import type { RunRecord } from "../../harness/report/run-record.js";
import { judgedRuns } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-compare-"));
const at = (name: string) => path.join(dir, name);
const TAGS = ["--tags", "@IDEM-02 or @OP-01", ...TIMEOUT_ARGS];
const rulesOf = (name: string) => (JSON.parse(readFileSync(path.join(at(name), "conformance.json"), "utf8")) as RunRecord).rules;
const failingRules = (name: string) =>
  rulesOf(name)
    .filter((r) => r.verdict === "fail")
    .map((r) => r.id)
    .sort();

test("compare: of two equal runs exits 0; of a reference run and a mutant's, sharded and merged, names each newly failing rule and exits 1", async () => {
  for (const name of ["ref-a", "ref-b"]) assert.equal((await conformance([...TAGS, "--reports", at(name)])).code, 0);
  const equal = await conformance(["compare", at("ref-a"), at("ref-b")]);
  assert.equal(equal.code, 0, equal.output);
  assert.match(equal.output, /NO REGRESSION: nothing newly failing/);

  // The mutant's run in two shards, merged: compare reads the merged folder as any run's.
  for (const k of [1, 2])
    assert.equal((await conformance([...TAGS, "--mutant", "idem-conflict-as-duplicate", "--shard", `${k}/2`, "--reports", at(`shard-${k}`)])).code, 1);
  assert.equal((await conformance(["merge", at("shard-1"), at("shard-2"), "--reports", at("mutant")])).code, 1);
  const regressed = await conformance(["compare", at("ref-a"), at("mutant"), "--reports", at("out")]);
  assert.equal(regressed.code, 1, regressed.output);
  const failing = failingRules("mutant");
  assert.ok(failing.length > 0);
  const c = JSON.parse(readFileSync(path.join(at("out"), "compare.json"), "utf8")) as Comparison;
  assert.deepEqual(c.rules.newlyFailing.map((r) => r.id).sort(), failing, "each rule the mutant fails is newly failing");
  assert.equal(c.verdict, "regressed");
  const md = readFileSync(path.join(at("out"), "compare.md"), "utf8");
  // A rule the reference run judged reads pass → fail; one only the mutant's failures reached, not selected → fail.
  for (const id of failing) assert.match(md, new RegExp(`^\\| ${id} \\| MUST \\| (✅ pass|· not selected) \\| ❌ fail \\|`, "m"), id);
  for (const id of failing) assert.match(regressed.output, new RegExp(`NEWLY FAILING ${id} \\(MUST\\) (pass|not-selected) → fail`), id);

  // Back again: what the mutant broke reads as fixed, and nothing regresses.
  const fixed = await conformance(["compare", at("mutant"), at("ref-b")]);
  assert.equal(fixed.code, 0, fixed.output);
  const judgedByReference = failing.filter((id) => rulesOf("ref-b").find((r) => r.id === id)?.verdict === "pass");
  assert.match(fixed.output, new RegExp(`rules: 0 newly failing, ${judgedByReference.length} fixed`));

  const missing = await conformance(["compare", at("ref-a"), at("nowhere")]);
  assert.equal(missing.code, 2);
  assert.match(missing.output, /no conformance\.json; give the --reports folder of a conformance run/);

  // Every line compare writes, its error included, carries the same prefix.
  for (const out of [equal, regressed, fixed, missing]) {
    const lines = out.output.split("\n").filter((l) => l.trim() !== "");
    assert.ok(lines.length > 0);
    assert.deepEqual(
      lines.filter((l) => !l.startsWith("lomi-conformance compare: ")),
      [],
      out.output,
    );
  }
});
