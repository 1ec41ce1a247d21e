import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { conformance } from "../support/runs.js";

test("a typo in a scenario the run does not select is a configuration error (exit 2) naming the file, the line and the step meant, never a broker's failure", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-typo-"));
  const features = path.join(dir, "features");
  mkdirSync(features);
  const lines = readFileSync("features/idempotency-conflict.feature", "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes("Then the reply is the error IDEMPOTENCY_CONFLICT"));
  assert.ok(at >= 0);
  lines[at] = lines[at]!.replace("IDEMPOTENCY_CONFLICT", "IDEMPOTENCY_CONFLICTS");
  writeFileSync(path.join(features, "typo.feature"), lines.join("\n"));
  // The run selects IDEM-04's scenarios only: the typo is in an IDEM-02 scenario, which the run never reaches.
  const { code, output } = await conformance(["--tags", "@IDEM-04", "--reports", path.join(dir, "reports")], { LOMI_FEATURES_DIR: features });
  assert.equal(code, 2, output.slice(-2000));
  assert.match(output, /the suite has 1 authoring problem\(s\) \(lomi-conformance lint\)/);
  assert.match(
    output,
    new RegExp(
      `\\S*typo\\.feature:${at + 1}: undefined step "the reply is the error IDEMPOTENCY_CONFLICTS"; did you mean "the reply is the error \\{code\\}"\\?`,
    ),
  );
  assert.doesNotMatch(output, /NOT CONFORMANT/);
  assert.match(readFileSync(path.join(dir, "reports", "conformance.md"), "utf8"), /NOT RUN/);
});
