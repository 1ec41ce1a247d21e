import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { REPORT_FILES } from "../../harness/report/write-reports.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

type Report = { verdict: string; headline: string; scenarios: { pass: number; total: number; notApplicable: number }; rules: Array<{ id: string; scenarios: Array<{ name: string; reason?: string }> }> };

/** Scenarios enough that a stop after the third finds most of them still to run. */
const TAGS = "@IDEM-01 or @OP-01 or @REV-01 or @CANCEL-01";

test("a stdio run sent SIGTERM after a few scenarios writes every report with what finished, the rest NOT RUN with the reason", async () => {
  const reports = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-stopped-")), "reports");
  const child = spawn(process.execPath, ["bin/lomi-conformance.js", "--broker-cmd", "node bin/lomi-broker.js", "--tags", TAGS, ...TIMEOUT_ARGS, "--reports", reports], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let sent = false;
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
    // The third finished scenario's progress line: the run is under way, most of it still ahead.
    if (!sent && /^\[ ?3\/\d+\]/m.test(output)) {
      sent = true;
      child.kill("SIGTERM");
    }
  });
  const [code] = (await once(child, "exit")) as [number | null];
  assert.ok(sent, `the run ended before its third scenario:\n${output.slice(-2000)}`);
  assert.equal(code, 2, `a stopped run is no verdict:\n${output.slice(-2000)}`);
  for (const f of REPORT_FILES) assert.ok(existsSync(path.join(reports, f)), `${f} is missing:\n${output.slice(-2000)}`);

  const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as Report;
  assert.equal(report.verdict, "not-run");
  assert.match(report.headline, /stopped by SIGTERM after \d+ of \d+ scenario/);
  assert.ok(report.scenarios.pass >= 3, `the scenarios that finished keep their verdicts: ${JSON.stringify(report.scenarios)}`);
  assert.ok(report.scenarios.notApplicable > 0 && report.scenarios.total > report.scenarios.pass, "the rest are there, not run");
  const notRun = report.rules.flatMap((r) => r.scenarios).filter((s) => /^NOT RUN: the run was stopped by SIGTERM/.test(s.reason ?? ""));
  assert.ok(notRun.length > 0, "a scenario not run names why");
  const junit = readFileSync(path.join(reports, "junit.xml"), "utf8");
  assert.ok((junit.match(/<testcase /g) ?? []).length >= report.scenarios.total, "JUnit has a test case for every scenario, run or not");
  assert.match(junit, /NOT RUN: the run was stopped by SIGTERM/);
  // Cucumber's own report is whole: its formatter writes only at a run's end, so the stop wrote it.
  assert.match(readFileSync(path.join(reports, "cucumber.html"), "utf8"), /<\/html>\s*$/);
});
