import assert from "node:assert/strict";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { runWorkflow, type StepRun, type WorkflowContext } from "../support/workflow-steps.js";

/**
 * The matrix recipe of docs/implementers.md run as written (examples/ci/lomi-conformance-matrix.yml):
 * each shard job and each explore job as a process, one after another, their artifacts handed to the
 * merge job, whose merge gives the verdict. `npx lomi-conformance` is this checkout's bin.
 */

const RECIPE = kitPath("examples/ci/lomi-conformance-matrix.yml");

const stepOf = (runs: StepRun[], label: string) => {
  const found = runs.find((r) => r.label === label);
  assert.ok(found, `no step "${label}" in ${runs.map((r) => r.label).join(", ")}`);
  return found;
};

test(
  "the matrix recipe: three shards and two explore parts as jobs, then one merge job with one verdict and the reports",
  { timeout: 10 * 60_000 },
  async () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), "lomi-matrix-"));
    const bin = path.join(repo, ".tools");
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, "npx"),
      `#!/usr/bin/env bash\n[ "$1" = lomi-conformance ] || exit 127\nshift\nexec node "${kitPath("bin/lomi-conformance.js")}" "$@"\n`,
    );
    chmodSync(path.join(bin, "npx"), 0o755);
    writeFileSync(path.join(repo, "conformance-baseline.json"), `${JSON.stringify({ expectedFailures: [] })}\n`);
    const summary = path.join(repo, ".tools", "summary.md");
    const artifacts = path.join(repo, ".tools", "artifacts");
    const uploaded: string[] = [];
    const context = (job: string, from: string, matrix: Record<string, string> = {}): WorkflowContext => ({
      cwd: repo,
      job,
      from,
      env: { CI: "true", GITHUB_STEP_SUMMARY: summary, PATH: `${bin}:${process.env.PATH}` },
      workflowEnv: { BROKER_CMD: `node ${kitPath("bin/lomi-broker.js")}`, LOMI_TAGS: "@REV-01 or @OP-03", EXPLORE_RUNS: "1" },
      expressions: matrix,
      // A push: the steps that compare a pull request with its base branch do not run.
      conditions: (c) => (c === "always()" ? true : c === "always() && github.event_name == 'pull_request'" ? false : undefined),
      uses: (step) => {
        // upload-artifact keeps the folder under its name; download-artifact gives each back in a folder of its name.
        if (step.uses?.startsWith("actions/upload-artifact@")) {
          const name = String(step.with?.name).replace(/\$\{\{ matrix\.(\w+) \}\}/g, (_, k: string) => matrix[`matrix.${k}`]!);
          uploaded.push(name);
          cpSync(
            path.join(
              repo,
              String(step.with?.path).replace(/\$\{\{ matrix\.(\w+) \}\}/g, (_, k: string) => matrix[`matrix.${k}`]!),
            ),
            path.join(artifacts, name),
            { recursive: true },
          );
        }
        if (step.uses?.startsWith("actions/download-artifact@")) cpSync(artifacts, path.join(repo, String(step.with?.path)), { recursive: true });
      },
    });

    for (const shard of ["1", "2", "3"]) {
      const runs = await runWorkflow(RECIPE, context("shard", "Conformance shard", { "matrix.shard": shard }));
      const step = stepOf(runs, "Conformance shard");
      assert.equal(step.outcome, "success", step.output.slice(-3000));
      assert.match(step.output, new RegExp(`\\[shard ${shard}/3\\] `));
    }
    for (const part of ["1", "2"]) {
      const runs = await runWorkflow(RECIPE, context("explore", "Explore part", { "matrix.part": part }));
      assert.equal(stepOf(runs, "Explore part").outcome, "success", stepOf(runs, "Explore part").output.slice(-3000));
    }
    assert.deepEqual(uploaded, ["shard-1", "shard-2", "shard-3", "explore-1", "explore-2"]);

    const merge = await runWorkflow(RECIPE, context("merge", "Download the parts"));
    for (const label of ["Merge the shards", "Merge the explore parts", "Summary"])
      assert.equal(stepOf(merge, label).outcome, "success", `${label}:\n${stepOf(merge, label).output.slice(-3000)}`);
    const report = JSON.parse(readFileSync(path.join(repo, "reports/conformance.json"), "utf8")) as {
      verdict: string;
      headline: string;
      profile: { name: string };
      shards: { parts: unknown[] };
      scenarios: { total: number };
    };
    assert.equal(report.verdict, "conformant", report.headline);
    assert.equal(report.profile.name, "stdio");
    assert.equal(report.shards.parts.length, 3);
    const explore = JSON.parse(readFileSync(path.join(repo, "reports/explore/explore.json"), "utf8")) as { result: { runs: number }; parts: unknown[] };
    assert.equal(explore.result.runs, 2);
    assert.equal(explore.parts.length, 2);
    const md = readFileSync(summary, "utf8");
    assert.match(md, /^## Lomi conformance: partial run .*CONFORMANT over stdio/m);
    assert.match(md, /^# lomi-conformance explore \(2 parts merged\)/m);
    assert.deepEqual(uploaded.at(-1), "conformance-reports");
  },
);
