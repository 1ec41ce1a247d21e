import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { BUDGET_MS, TIMEOUT_ARGS } from "../support/budget.js";

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

function runAgainst(command: string, name: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `lomi-broken-${name}-`));
  const pids = path.join(dir, "pids");
  const reports = path.join(dir, "reports");
  mkdirSync(reports);
  writeFileSync(path.join(reports, "conformance.json"), "{}"); // a previous run's: must not pass for this one's
  const r = spawnSync(process.execPath, ["bin/lomi-conformance.js", "--broker-cmd", command, "--tags", "@OP-05", ...TIMEOUT_ARGS, "--reports", reports], {
    encoding: "utf8",
    env: { ...process.env, LOMI_FAKE_PIDS: pids },
  });
  const started = existsSync(pids) ? readFileSync(pids, "utf8").trim().split("\n").map(Number) : [];
  return { r, reports, started };
}

const AT_START = [
  {
    name: "not found",
    command: "no-such-broker-command",
    because: /"no-such-broker-command" was not found: no program "no-such-broker-command" on PATH/,
    stderr: /wrote nothing on stderr/,
  },
  {
    name: "exits at start",
    command: "node test/fixtures/brokers/exit-at-start.mjs",
    because: /did not complete MCP initialize: the broker process exited \(code 3\)/,
    stderr: /stderr:\n {2}fake-broker: cannot open the receipt store: permission denied/,
  },
  {
    name: "garbage on stdout",
    command: "node test/fixtures/brokers/garbage-stdout.mjs",
    because: /wrote a line on stdout that is not a JSON-RPC message: "Starting fake broker v1\.0 on stdio\.\.\." \(not JSON\)/,
    stderr: /wrote nothing on stderr/,
  },
  // Its stderr comes after the banner that stops it: read to the end before the cause is told, and the banner quoted whole.
  {
    name: "banner, then stderr",
    command: "node test/fixtures/brokers/banner-then-stderr.mjs",
    because:
      /not a JSON-RPC message: "Acme Lomi broker 0\.3\.1 — store \.\/receipts\.sqlite, native http:\/\/127\.0\.0\.1:\d+, seed 1, ready for MCP on stdio" \(not JSON\)/,
    stderr: /stderr:\n {2}acme-broker: listening on stdio\n {2}acme-broker: waiting for initialize/,
  },
  {
    name: "silent",
    command: "node test/fixtures/brokers/hang.mjs",
    because: new RegExp(`did not answer MCP initialize within ${BUDGET_MS} ms`),
    stderr: /wrote nothing on stderr/,
  },
];

for (const { name, command, because, stderr } of AT_START) {
  test(`a broker that fails at start (${name}) stops the run before any scenario: exit 2, the cause and its stderr, no process left`, () => {
    const { r, reports, started } = runAgainst(command, name.replace(/ /g, "-"));
    assert.equal(r.status, 2, `exit 2, got ${r.status}: ${r.stderr}`);
    assert.match(r.stderr, because);
    assert.match(r.stderr, stderr);
    assert.doesNotMatch(r.stdout, /scenarios? \(/, "no scenario ran");
    // The reports say NOT RUN and why, so a CI gate reading them sees the cause, not an earlier run's verdict.
    const run = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8"));
    assert.equal(run.verdict, "not-run");
    assert.match(run.headline, because);
    assert.match(run.problems[0], stderr);
    assert.match(readFileSync(path.join(reports, "conformance.md"), "utf8"), /NOT RUN: /);
    assert.match(readFileSync(path.join(reports, "conformance.html"), "utf8"), /NOT RUN: /);
    assert.match(readFileSync(path.join(reports, "conformance.svg"), "utf8"), /not run/);
    const junit = readFileSync(path.join(reports, "junit.xml"), "utf8");
    assert.match(junit, /errors="1"/);
    assert.match(junit, /<error message="NOT RUN: [^"]+" type="not-run">/);
    assert.deepEqual(started.filter(alive), [], "every process the broker started is gone");
  });
}

test("a broker that goes silent after initialize fails every scenario at its start: a setup problem (exit 2) with the one cause, the failures kept, no process left", () => {
  const { r, reports, started } = runAgainst("node test/fixtures/brokers/silent-after-initialize.mjs", "silent-after-initialize");
  assert.equal(r.status, 2, `exit 2 (nothing could be judged), got ${r.status}: ${r.stderr}`);
  assert.match(r.stdout, /^\[1\/2\] (OP-05|INPUT-02) .+ … FAILED \d+\.\d s$/m, "a log line per finished scenario");
  const run = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8"));
  assert.equal(run.verdict, "not-run");
  assert.match(
    run.headline,
    /^NOT RUN: every one of the 2 scenarios that ran failed at its first step the same way, so no rule could be judged: Given the agent is connected to workspace "ws-alpha": .*did not answer with a tool result/,
  );
  assert.match(readFileSync(path.join(reports, "junit.xml"), "utf8"), /<error message="NOT RUN: every one of the 2 scenarios/);
  // No answer in time judges no rule (never a failure on a clock's word): the failure is kept on the scenario.
  const rule = run.rules.find((x: { id: string }) => x.id === "OP-05");
  assert.equal(rule.verdict, "not-applicable");
  assert.match(rule.scenarios[0].reason, /got no answer \(none in time/);
  const failure = rule.scenarios[0].failure;
  assert.match(failure.message, new RegExp(`did not answer with a tool result: no reply within ${BUDGET_MS} ms \\(--timeout-ms\\)`));
  assert.doesNotMatch(failure.message, /function timed out/, "the harness's own timeout, not cucumber's step timeout, reports the silence");
  assert.match(JSON.stringify(failure.reply), /did not answer/, "the failure shows the request that got no reply, and why");
  for (const file of ["conformance.md", "conformance.svg", "junit.xml", "cucumber.html"]) assert.ok(existsSync(path.join(reports, file)), file);
  assert.ok(started.length > 0);
  assert.deepEqual(started.filter(alive), [], "every process the broker started is gone");
});
