import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";

// The end of the GitHub Action's step (scripts/action-outputs.mjs): the outputs and the job summary
// from the reports a run left, or, when it left none, not-run and a summary saying so. (The whole
// Action runs from the installed kit in test/e2e/adopter-ci.test.ts.)

function outputsOf(reports: string, code: string): { outputs: Record<string, string>; summary: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-action-outputs-"));
  const [output, summary] = [path.join(dir, "output"), path.join(dir, "summary")];
  const run = spawnSync(process.execPath, [kitPath("scripts/action-outputs.mjs"), reports, code], {
    encoding: "utf8",
    env: { ...process.env, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
  });
  assert.equal(run.status, 0, run.stderr);
  const lines = readFileSync(output, "utf8").trim().split("\n");
  return { outputs: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])), summary: readFileSync(summary, "utf8") };
}

test("a run's reports: its verdict, its title on one line, its evidence digest and the reports' paths; conformance.md into the summary", () => {
  const reports = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-action-reports-")), "out");
  mkdirSync(reports);
  writeFileSync(
    path.join(reports, "conformance.json"),
    JSON.stringify({
      verdict: "not-conformant",
      headline: "NOT CONFORMANT",
      title: "partial run (tags @A):\nNOT CONFORMANT",
      evidence: { digest: "sha256:abc" },
    }),
  );
  writeFileSync(path.join(reports, "conformance.md"), "## Lomi conformance: NOT CONFORMANT\n");
  const { outputs, summary } = outputsOf(reports, "1");
  assert.deepEqual(outputs, {
    verdict: "not-conformant",
    "exit-code": "1",
    headline: "partial run (tags @A): NOT CONFORMANT",
    reports,
    "report-json": path.join(reports, "conformance.json"),
    "report-md": path.join(reports, "conformance.md"),
    "report-html": path.join(reports, "conformance.html"),
    junit: path.join(reports, "junit.xml"),
    badge: path.join(reports, "conformance.svg"),
    "evidence-digest": "sha256:abc",
  });
  assert.equal(summary, "## Lomi conformance: NOT CONFORMANT\n\n");
});

test("no reports (the run could not start): verdict not-run, its exit code, and a summary that says so", () => {
  const nowhere = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-action-none-")), "reports");
  const { outputs, summary } = outputsOf(nowhere, "2");
  assert.deepEqual([outputs.verdict, outputs["exit-code"], outputs.headline, outputs["evidence-digest"]], ["not-run", "2", `no report in ${nowhere}`, ""]);
  assert.match(summary, /^## Lomi conformance: NOT RUN\n\nThe run wrote no report in `[^`]+` \(exit 2\); its log says why\.\n$/);
});
