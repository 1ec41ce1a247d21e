import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

/** Alive and not a zombie waiting to be reaped (a zombie runs no code and holds nothing). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, "utf8"));
}

const BROKEN = [
  { fixture: "hang", because: /did not complete MCP initialize \(timeout 1500 ms\)/ },
  { fixture: "exit-at-start", because: /exited \(code 3\); stderr ends: fake-broker: cannot open the receipt store/ },
  { fixture: "garbage-stdout", because: /wrote a line on stdout that is not a JSON-RPC message/ },
];

for (const { fixture, because } of BROKEN) {
  test(`a broker that fails as "${fixture}" is reported failing with the reason, reports are written, no process is left`, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `lomi-broken-${fixture}-`));
    const pids = path.join(dir, "pids");
    const reports = path.join(dir, "reports");
    const r = spawnSync(
      process.execPath,
      ["bin/lomi-conformance.js", "--broker-cmd", `node test/fixtures/brokers/${fixture}.mjs`, "--tags", "@OP-05", "--timeout-ms", "1500", "--reports", reports],
      { encoding: "utf8", env: { ...process.env, LOMI_FAKE_PIDS: pids } },
    );
    assert.equal(r.status, 1, `exit code 1 (a rule failed), got ${r.status}: ${r.stderr}`);
    const run = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8"));
    const rule = run.rules.find((x: { id: string }) => x.id === "OP-05");
    assert.equal(rule.verdict, "fail");
    const failure = rule.scenarios[0].failure;
    assert.match(failure.message, because);
    assert.doesNotMatch(failure.message, /function timed out/, "the harness's own timeout, not cucumber's step timeout, reports the hang");
    for (const file of ["conformance.md", "conformance.svg", "junit.xml", "cucumber.html"]) assert.ok(existsSync(path.join(reports, file)), file);
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    assert.ok(started.length > 0);
    assert.deepEqual(started.filter(alive), [], "every process the broker started is gone");
  });
}
