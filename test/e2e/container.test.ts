import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { BUDGET_MS } from "../support/budget.js";

const IMAGE = process.env.LOMI_BROKER_IMAGE ?? "lomi-reference-broker:local";
const engine = spawnSync("docker", ["version", "--format", "{{.Server.Version}}"], { encoding: "utf8" });
const noEngine =
  engine.status === 0
    ? undefined
    : `not applicable here: no Docker engine is reachable (${engine.error?.message ?? engine.stderr.trim().split("\n").at(-1)}); .ci/run installs and starts one`;
if (noEngine) process.stderr.write(`container test ${noEngine}\n`);

/** The kit's containers on this engine: those an earlier run left (a CI runner killed mid-run) are not this run's. */
const kitContainers = () =>
  new Set(
    spawnSync("docker", ["ps", "--all", "--quiet", "--no-trunc", "--filter", "label=lomi-conformance"], { encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean),
  );

test(
  "the suite runs against the reference broker's image, crash, fault-hook and two-agent scenarios included, and leaves no container",
  { skip: noEngine },
  () => {
    const before = kitContainers();
    const build = spawnSync(".ci/build-broker-image.sh", [IMAGE], { encoding: "utf8" });
    assert.equal(build.status, 0, `building ${IMAGE}: ${build.stderr}`);
    // The image ships the compiled broker and no TypeScript: its bin runs dist/, never tsx.
    const compiled = spawnSync(
      "docker",
      [
        "run",
        "--rm",
        "--entrypoint",
        "/usr/local/bin/node",
        IMAGE,
        "--input-type=module",
        "-e",
        'import { existsSync } from "node:fs"; import { buildIsFresh, SOURCE_DIRS } from "/app/bin/compiled.js"; console.log(buildIsFresh(), SOURCE_DIRS.filter((d) => existsSync(`/app/${d}`)).length)',
      ],
      { encoding: "utf8" },
    );
    assert.equal(compiled.stdout.trim(), "true 0", compiled.stderr);
    const reports = mkdtempSync(path.join(os.tmpdir(), "lomi-image-"));
    const run = spawnSync(
      process.execPath,
      [
        // Crashes by the harness (DUR-02, DUR-03), by the broker's own hooks, and two agents at once.
        "bin/lomi-conformance.js",
        "--broker-image",
        IMAGE,
        "--broker-faults",
        "--tags",
        "@needs-faults or @DUR-02 or @DUR-03 or @DUR-07 or @EPOCH-04",
        "--parallel",
        "2",
        "--timeout-ms",
        String(2 * BUDGET_MS),
        "--reports",
        reports,
      ],
      { encoding: "utf8" },
    );
    assert.equal(run.status, 0, run.stdout.slice(-3000) + run.stderr.slice(-2000));
    const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8"));
    assert.equal(report.verdict, "conformant");
    const verdicts = Object.fromEntries(report.rules.map((r: { id: string; verdict: string }) => [r.id, r.verdict]));
    // Crashes (the container killed, its store on the mounted directory), the broker's own fault hooks,
    // a second instance refused on the same store, and two agents at once all ran and passed.
    for (const id of ["DUR-02", "DUR-03", "DUR-05", "DUR-06", "DUR-07", "EPOCH-04"]) assert.equal(verdicts[id], "pass", id);
    assert.equal(report.scenarios.notApplicable, 0);
    const left = [...kitContainers()].filter((id) => !before.has(id));
    assert.deepEqual(left, [], "every container the run started is removed");
  },
);
