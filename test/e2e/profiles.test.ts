import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { conformance } from "../support/runs.js";

test("over stdio a correct broker is conformant over the stdio profile with the rules it cannot judge named; --require-all fails on them", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-profile-"));
  const args = ["--broker-cmd", "node bin/lomi-broker.js", "--broker-faults", "--tags", "@AUTH-05 or @AUTH-03", "--timeout-ms", "30000"];
  const plain = await conformance([...args, "--reports", path.join(dir, "plain")]);
  assert.equal(plain.code, 0, plain.output.slice(-3000));
  assert.match(plain.output, /lomi-conformance: partial run \(tags @AUTH-05 or @AUTH-03\): 3 of \d+ rules reached; on those: CONFORMANT over stdio: 1 of 3 MUST rules judged; not judged here: AUTH-05, EVT-01; run over HTTP \(--broker-url\) or an image \(--broker-image\) to judge them/);
  const report = JSON.parse(readFileSync(path.join(dir, "plain", "conformance.json"), "utf8")) as { verdict: string; profile: { name: string; notJudged: string[] } };
  assert.equal(report.verdict, "conformant");
  assert.deepEqual(report.profile, { name: "stdio", notJudged: ["AUTH-05", "EVT-01"], elsewhere: "run over HTTP (--broker-url) or an image (--broker-image) to judge them", notReached: [] });
  assert.match(readFileSync(path.join(dir, "plain", "conformance.svg"), "utf8"), /<title>lomi conformance: conformant over stdio \d+\/\d+<\/title>/);
  assert.match(readFileSync(path.join(dir, "plain", "junit.xml"), "utf8"), /<testcase classname="[^"]*pairing.feature" name="[^"]*"[^>]*><properties><property name="rule" value="AUTH-05"\/><property name="AUTH-05 title" value="[^"]+"\/><property name="AUTH-05 source" value="[^"]+"\/><property name="verdict" value="not-applicable"\/><\/properties><skipped message="not applicable: /);

  const all = await conformance([...args, "--require-all", "--reports", path.join(dir, "all")]);
  assert.equal(all.code, 1, all.output.slice(-3000));
  assert.match(all.output, /NOT CONFORMANT over stdio/);
  assert.match(all.output, /AUTH-05: not judged \(--require-all\)|NOT JUDGED HERE AUTH-05/);
  const gate = JSON.parse(readFileSync(path.join(dir, "all", "conformance.json"), "utf8")) as { problems: string[] };
  assert.ok(gate.problems.some((p) => p.startsWith("AUTH-05: not judged (--require-all)")), gate.problems.join("\n"));
  assert.ok(gate.problems.some((p) => p.startsWith("EVT-01: not judged (--require-all)")), gate.problems.join("\n"));
});
