import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { judgedRuns } from "../support/runs.js";

// The command lines of this file run on one judging process: the harness loads once, not once a run.
const conformance = judgedRuns();

const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-explore-cli-"));

test("explore against a process broker prints the seed first, then runs, steps and faults per kind, and finds no violation", async () => {
  const reports = path.join(dir, "process");
  const { code, output } = await conformance([
    "explore",
    "--seed",
    "3",
    "--runs",
    "1",
    "--steps",
    "12",
    "--broker-cmd",
    "node bin/lomi-broker.js",
    "--timeout-ms",
    "60000",
    "--reports",
    reports,
  ]);
  assert.equal(code, 0, output);
  assert.match(output.split("\n")[0]!, /^lomi-conformance explore: seed 3, /);
  assert.match(output, /runs 1 \(\+0 shrinking\), steps \d+/);
  assert.match(output, /^run 1 of 1: \d+ steps, \d+ in all$/m, "not on a terminal, a line per run");
  assert.match(output, /faults injected: hold \d+, fail \d+, lose-reply \d+,.* broker-crash \d+/);
  const report = JSON.parse(readFileSync(path.join(reports, "explore.json"), "utf8")) as { violation?: unknown; result: { runs: number } };
  assert.equal(report.violation, undefined);
  assert.equal(report.result.runs, 1);
});

test("a violation prints the invariant, the shrunk steps and a replay line that gives the same history", async () => {
  const reports = path.join(dir, "found");
  const found = await conformance(["explore", "--mutant", "op-failure-as-mcp-error", "--reports", reports]);
  assert.equal(found.code, 1, found.output);
  assert.match(found.output, /VIOLATION of receipts-readable/);
  assert.match(found.output, /^run 1 of 100: \d+ steps, \d+ in all(; VIOLATION found, shrinking it)?$/m);
  assert.match(found.output, /^shrinking: run \d+, still violates in \d+ steps$/m, "shrinking shows too");
  const replay = /^replay: lomi-conformance (explore .*)$/m.exec(found.output)?.[1];
  assert.ok(replay, found.output);
  assert.ok(replay.endsWith(` --reports ${reports}`), `the replay line keeps the run's --reports, so it writes over no other reports: ${replay}`);
  const history = readFileSync(path.join(reports, "explore-history.jsonl"), "utf8");
  const again = path.join(dir, "again");
  const args = [...replay.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const replayed = await conformance([...args.slice(0, -2), "--reports", again]);
  assert.equal(replayed.code, 1, replayed.output);
  assert.equal(readFileSync(path.join(again, "explore-history.jsonl"), "utf8"), history);

  const checked = await conformance(["check", path.join(reports, "explore-history.jsonl")]);
  assert.equal(checked.code, 1, checked.output);
  assert.match(checked.output, /^  FAIL OP-03$/m);
  assert.match(checked.output, /answered NATIVE_FAILURE.*\(receipts-readable\)/);
});

test("check judges a recorded history alone: ledger checks not applicable without a ledger; a malformed file exits 2", async () => {
  const recorded = path.join(dir, "recorded.jsonl");
  const call = {
    type: "call",
    agent: "my-agent",
    connection: "1",
    tool: "lomi_operation_get",
    args: { operationId: "op-1" },
    sentAt: "2026-01-05T09:00:00.000Z",
    answeredAt: "2026-01-05T09:00:00.000Z",
    reply: {
      status: "answered",
      isError: true,
      structuredContent: { controlApiVersion: "1.0", status: "error", code: "NOT_FOUND", message: "No operation op-1." },
    },
  };
  writeFileSync(recorded, `${JSON.stringify(call)}\n`);
  const ok = await conformance(["check", recorded]);
  assert.equal(ok.code, 0, ok.output);
  // Per rule: the ledger's rules not judged (why), those whose situation never arose not exercised, never pass.
  assert.match(ok.output, /not judged OP-04: effect-state-agrees: the history carries no effect ledger/);
  assert.match(ok.output, /not exercised OP-02: its situation never arose/);
  assert.match(ok.output, /pass ENV-01 \(judged 1 time\)/);
  assert.doesNotMatch(ok.output, /pass (OP-02|IDEM-01|AUTH-05)/);

  const broken = path.join(dir, "broken.jsonl");
  writeFileSync(broken, `${JSON.stringify(call)}\n{"type":"call","agent":1}\n`);
  const bad = await conformance(["check", broken]);
  assert.equal(bad.code, 2, bad.output);
  assert.match(bad.output, /broken\.jsonl:2 is not a history record/);
});
