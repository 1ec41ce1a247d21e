import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { conformance } from "../support/runs.js";

type Report = { rules: Array<{ id: string; verdict: string }> };
const verdicts = (dir: string) => new Map((JSON.parse(readFileSync(path.join(dir, "conformance.json"), "utf8")) as Report).rules.map((r) => [r.id, r.verdict]));

test("over stdio the rules with two agents are judged in turn (a restart serves the other), and a broker that shows another pairing's receipts fails AUTH-05", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-two-agents-"));
  const reference = await conformance([
    "--broker-cmd",
    "node bin/lomi-broker.js",
    "--tags",
    "@AUTH-11 or @INPUT-08",
    ...TIMEOUT_ARGS,
    "--reports",
    path.join(dir, "reference"),
  ]);
  assert.equal(reference.code, 0, reference.output.slice(-3000));
  const judged = verdicts(path.join(dir, "reference"));
  for (const id of ["AUTH-11", "INPUT-08", "INPUT-18"]) assert.equal(judged.get(id), "pass", `${id}: ${reference.output.slice(-2000)}`);

  const mutant = await conformance([
    "--broker-cmd",
    "node mutants/lomi-mutant.js auth-foreign-receipts-shown",
    "--tags",
    "@AUTH-05",
    ...TIMEOUT_ARGS,
    "--reports",
    path.join(dir, "mutant"),
  ]);
  assert.equal(mutant.code, 1, mutant.output.slice(-3000));
  assert.equal(verdicts(path.join(dir, "mutant")).get("AUTH-05"), "fail", mutant.output.slice(-2000));
});
