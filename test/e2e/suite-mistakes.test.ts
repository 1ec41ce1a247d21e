import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { conformance } from "../support/runs.js";

test("a typo in a feature file is a configuration error (exit 2) naming the file and line, never a broker's failure", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-typo-"));
  const features = path.join(dir, "features");
  mkdirSync(features);
  const lines = readFileSync("features/idempotency-conflict.feature", "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes("Then the reply is the error IDEMPOTENCY_CONFLICT"));
  assert.ok(at >= 0);
  lines[at] = lines[at]!.replace("IDEMPOTENCY_CONFLICT", "IDEMPOTENCY_CONFLICTS");
  writeFileSync(path.join(features, "typo.feature"), lines.join("\n"));
  const { code, output } = await conformance(["--tags", "@IDEM-02", "--reports", path.join(dir, "reports")], { LOMI_FEATURES_DIR: features });
  assert.equal(code, 2, output.slice(-2000));
  assert.match(output, new RegExp(`lomi-conformance: \\S*typo\\.feature:${at + 1}: undefined step "Then the reply is the error IDEMPOTENCY_CONFLICTS"`));
  assert.doesNotMatch(output, /NOT CONFORMANT/);
});
