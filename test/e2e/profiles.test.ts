import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { judgedRuns } from "../support/runs.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

test("over stdio a correct broker is conformant over the stdio profile, the part it cannot judge named; --require-all fails on it", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-profile-"));
  // AUTH-05, and EVT-04 and EVT-01 where another pairing reads the feed, are judged over stdio, another agent served by a restart; of EPOCH-04, an epoch used from a second connection of one running instance is not.
  const tags = "@EPOCH-04 or @AUTH-05 or @AUTH-03 or (@EVT-04 and @EVT-01)";
  const args = ["--broker-cmd", "node bin/lomi-broker.js", "--broker-faults", "--tags", tags, "--timeout-ms", "30000"];
  const plain = await conformance([...args, "--reports", path.join(dir, "plain")]);
  assert.equal(plain.code, 0, plain.output.slice(-3000));
  assert.match(
    plain.output,
    /lomi-conformance: partial run \(tags @EPOCH-04 or @AUTH-05 or @AUTH-03 or \(@EVT-04 and @EVT-01\)\): 5 of \d+ rules reached; on those: CONFORMANT over stdio: 5 of 5 MUST rules judged, 2 of them in part/,
  );
  const report = JSON.parse(readFileSync(path.join(dir, "plain", "conformance.json"), "utf8")) as {
    verdict: string;
    profile: { notJudged: string[] };
    rules: Array<{ id: string; verdict: string; reason?: string }>;
  };
  assert.equal(report.verdict, "conformant");
  assert.deepEqual(report.profile.notJudged, []);
  for (const id of ["AUTH-05", "EVT-04", "EVT-01"]) {
    const rule = report.rules.find((r) => r.id === id);
    assert.deepEqual([rule?.verdict, rule?.reason], ["pass", undefined], `${id} is judged in full`);
  }
  const epoch = report.rules.find((r) => r.id === "EPOCH-04");
  assert.equal(epoch?.verdict, "pass");
  assert.match(epoch?.reason ?? "", /1 of 2 scenarios; the rest not judged here: .*two connections to one running instance cannot be shown/);
  assert.match(
    readFileSync(path.join(dir, "plain", "conformance.svg"), "utf8"),
    /<title>lomi conformance: conformant over stdio \d+\/\d+ \(lomi-conformance-kit [^)]*\)<\/title>/,
  );
  assert.match(
    readFileSync(path.join(dir, "plain", "junit.xml"), "utf8"),
    /<testcase classname="[^"]*retry-epochs.feature" name="[^"]*"[^>]*><properties><property name="rule" value="EPOCH-04"\/><property name="EPOCH-04 title" value="[^"]+"\/><property name="EPOCH-04 source" value="[^"]+"\/><property name="verdict" value="not-applicable"\/><\/properties><skipped message="not applicable: [^"]*two connections to one running instance cannot be shown/,
  );

  const all = await conformance([...args, "--require-all", "--reports", path.join(dir, "all")]);
  assert.equal(all.code, 1, all.output.slice(-3000));
  assert.match(all.output, /NOT CONFORMANT over stdio/);
  const gate = JSON.parse(readFileSync(path.join(dir, "all", "conformance.json"), "utf8")) as { problems: string[] };
  assert.ok(
    gate.problems.some((p) => /^EPOCH-04: .*not judged here.*\(--require-all\)$/.test(p)),
    gate.problems.join("\n"),
  );
});
