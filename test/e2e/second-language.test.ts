import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { conformance } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

// A broker in Python with its standard library only, written from docs/ (the catalogue's JSON
// Schemas, the bridge's prose): the kit's proof that docs/ suffice and that the harness assumes no Node.
const PYTHON = spawnSync("python3", ["--version"], { encoding: "utf8" });
const TAGS = "@AUTH-01 or @AUTH-02 or @AUTH-04";

test(
  "a stdlib-only Python broker built from docs/ passes the rules of the tools it serves",
  { skip: PYTHON.status === 0 ? false : "python3 is not installed here" },
  async () => {
    const reports = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-python-broker-")), "reports");
    const run = await conformance(["--broker-cmd", "python3 examples/python-broker/lomi_broker.py", "--tags", TAGS, ...TIMEOUT_ARGS, "--reports", reports]);
    assert.equal(run.code, 0, run.output.slice(-3000));
    const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as {
      verdict: string;
      scenarios: { pass: number; fail: number; notApplicable: number };
      rules: Array<{ id: string; verdict: string }>;
    };
    assert.equal(report.verdict, "conformant");
    for (const id of ["AUTH-01", "AUTH-02", "AUTH-04"]) assert.equal(report.rules.find((r) => r.id === id)?.verdict, "pass", id);
    assert.deepEqual([report.scenarios.fail, report.scenarios.notApplicable], [0, 0]);
    assert.ok(report.scenarios.pass >= 6, `${report.scenarios.pass} scenarios passed`);
  },
);
