import assert from "node:assert/strict";
import { test } from "node:test";
import { badgeSvg } from "../harness/report/badge.js";
import { explainFailure } from "../harness/report/failure-context.js";
import type { RuleReport } from "../harness/report/rule-verdicts.js";
import { markdownReport, type RunSummary } from "../harness/report/write-reports.js";

const ledgerEntry = (sequence: number, operationId: string) => ({
  sequence,
  at: "2026-01-05T09:00:00.000Z",
  kind: "dispatch" as const,
  operationId,
  tool: "lomi_terminal_create",
  pairingId: "pair-1",
  detail: {},
});

test("a failure keeps the last request and reply, and the ledger entries of the operations they name", () => {
  const f = explainFailure("Then Lomi saw 1 dispatch of \"first\"", "expected 1, saw 2", {
    exchanges: [
      { agent: "agent", tool: "lomi_connect", args: { workspaceId: "ws-alpha" }, reply: { structuredContent: { status: "ok" } } },
      { agent: "agent", tool: "lomi_terminal_create", args: { requestKey: "k" }, reply: { structuredContent: { status: "ok", data: { operation: { operationId: "op-2" } } } } },
    ],
    ledger: [ledgerEntry(1, "op-other"), ledgerEntry(2, "op-2")],
    brokerLog: "",
  });
  assert.deepEqual(f.request, { agent: "agent", tool: "lomi_terminal_create", args: { requestKey: "k" } });
  assert.deepEqual(f.reply, { status: "ok", data: { operation: { operationId: "op-2" } } });
  assert.deepEqual(f.ledger.map((e) => e.operationId), ["op-2"]);
});

test("a call that never answered is explained by why", () => {
  const f = explainFailure(undefined, "timeout", { exchanges: [{ agent: "agent", tool: "lomi_workspace_list", args: {}, reply: undefined, error: "timed out after 10000 ms" }], ledger: [], brokerLog: "" });
  assert.equal(f.reply, "timed out after 10000 ms");
});

const ruleReport = (id: string, verdict: RuleReport["verdict"], scenarios: RuleReport["scenarios"] = []): RuleReport => ({
  id,
  level: "MUST",
  title: `title of ${id}`,
  source: "s",
  family: id.split("-")[0]!,
  verdict,
  reason: verdict === "pass" ? undefined : "why",
  scenarios,
});

function run(verdict: RunSummary["verdict"], rules: RuleReport[]): RunSummary {
  return {
    broker: { adapter: "test", serverInfo: { name: "b", version: "1" } },
    seed: 1,
    level: "must",
    tags: undefined,
    baseline: undefined,
    startedAt: "2026-01-05T09:00:00.000Z",
    durationMs: 1000,
    profile: { name: "in-process", notJudged: [], elsewhere: "" },
    requireAll: false,
    verdict,
    headline: verdict,
    conformant: verdict === "conformant",
    problems: [],
    scenarios: { total: 1, pass: 0, fail: 1, baselined: 0, notApplicable: 0 },
    rules,
    baselineEntries: [],
  };
}

test("conformance.md explains a failed scenario once, naming every rule it fails", () => {
  const failed = { name: "retry", uri: "features/retry.feature", line: 9, verdict: "fail" as const, reason: "boom", failure: explainFailure("Then x", "boom", undefined) };
  const md = markdownReport(run("not-conformant", [ruleReport("IDEM-01", "fail", [failed]), ruleReport("OP-01", "fail", [failed]), ruleReport("REV-01", "pass")]));
  assert.equal(md.match(/<details>/g)?.length, 1);
  assert.match(md, /IDEM-01, OP-01 · retry \(features\/retry.feature:9\)/);
  assert.match(md, /- IDEM-01: title of IDEM-01\n- OP-01: title of OP-01/);
  assert.match(md, /\| REV-01 \| MUST \| ✅ pass \|/);
});

test("the badge says the verdict and is coloured by it", () => {
  assert.match(badgeSvg(run("conformant", [ruleReport("A-01", "pass")])), /#4c1[\s\S]*conformant over in-process 1\/1/);
  assert.match(badgeSvg(run("not-conformant", [ruleReport("A-01", "fail"), ruleReport("A-02", "pass")])), /#e05d44[\s\S]*not conformant over in-process 1\/2/);
  assert.match(badgeSvg(run("conformant-with-baseline", [ruleReport("A-01", "baselined"), ruleReport("A-02", "pass")])), /#dfb317[\s\S]*1\/2 over in-process, 1 baselined/);
});
