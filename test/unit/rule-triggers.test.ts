import assert from "node:assert/strict";
import { test } from "node:test";
import { formatHistory, parseHistory, type HistoryRecord } from "../../harness/history/format.js";
import { checkHistory, rulesFromOracles, type RuleFromOracles } from "../../harness/oracles/index.js";
import { judgedLine, ruleLines } from "../../harness/check/check-report.js";
import { admit, call, connect, events, EPOCH, get, history, runArgs } from "../support/histories.js";

// No pass without its trigger: a rule whose situation never arose in a history reads "not exercised".

const header: HistoryRecord = { type: "header", format: "lomi-history/1", source: "a recorder", ledger: false, clock: "recorder" };
const okList = { status: "answered" as const, isError: false, structuredContent: { controlApiVersion: "1.0", status: "ok", data: { workspaces: [] } } };
const byId = (rules: RuleFromOracles[]) => new Map(rules.map((r) => [r.id, r]));

test("a one-call history passes only the envelope rules it judged, and reads every other rule not exercised, never pass", () => {
  const rules = rulesFromOracles(checkHistory(history([call("lomi_workspace_list", {}, okList)])));
  const passed = rules.filter((r) => r.verdict === "pass").map((r) => r.id);
  assert.deepEqual(passed.sort(), ["ENV-01", "ENV-02", "ENV-03", "ENV-04"]);
  for (const id of ["IDEM-01", "IDEM-02", "DUR-03", "AUTH-05", "DUR-01", "EPOCH-01", "EVT-01", "EVT-02", "INPUT-03"])
    assert.equal(byId(rules).get(id)?.verdict, "not-exercised", id);
  assert.equal(byId(rules).get("ENV-01")?.judged, 1);
  const lines = ruleLines(checkHistory(history([call("lomi_workspace_list", {}, okList)])));
  assert.ok(lines.includes("not exercised IDEM-01: its situation never arose in this history"), lines.join("\n"));
  assert.ok(!lines.some((l) => /^pass IDEM/.test(l)));
});

test("a rule passes once its situation arose: a same-arguments retry judges IDEM-01, a read after an empty page EVT-02", () => {
  const op = { operationId: "op-1", state: "running", effectState: "none" };
  const records = [
    connect(EPOCH),
    admit(op),
    admit(op, runArgs(), { duplicate: true }),
    events([], { next: "0" }),
    events([{ sequence: "1", operationId: "op-1", previousState: null, state: "running" }], { cursor: "0" }),
    get({ ...op, state: "succeeded", effectState: "complete" }),
  ];
  const rules = byId(rulesFromOracles(checkHistory(history(records))));
  assert.equal(rules.get("IDEM-01")?.verdict, "pass");
  assert.equal(rules.get("IDEM-01")?.judged, 1);
  assert.equal(rules.get("IDEM-02")?.verdict, "not-exercised", "no changed arguments under a used identity");
  assert.equal(rules.get("EVT-02")?.verdict, "pass");
  assert.equal(rules.get("DUR-06")?.verdict, "not-judged", "the ledger oracles cannot judge recorded traffic");
});

test("without a ledger, a rule only the ledger oracles judge is not judged, with why, never not exercised", () => {
  const rules = byId(rulesFromOracles(checkHistory(history([call("lomi_workspace_list", {}, okList)]))));
  assert.equal(rules.get("SERIAL-01")?.verdict, "not-judged");
  assert.match(rules.get("SERIAL-01")?.reason ?? "", /effect ledger/);
  assert.match(judgedLine(checkHistory(history([call("lomi_workspace_list", {}, okList)]))), /0 rule\(s\) fail, 4 pass .*not exercised/);
});

test('a recorded broker that accepted a "__proto__" key fails SCH-06 when the history file is read back: every key is kept as sent', () => {
  const sent = `{"workspaceId":"ws-alpha","__proto__":{"polluted":true}}`;
  const text = `${formatHistory([header])}${JSON.stringify({ type: "call", agent: "a", connection: "c1", tool: "lomi_panel_list", args: "ARGS", sentAt: "2026-01-05T09:00:00.000Z", answeredAt: "2026-01-05T09:00:00.000Z", reply: { status: "answered", isError: false, structuredContent: { controlApiVersion: "1.0", status: "ok", data: { workspaceId: "ws-alpha", domainRevision: "1", panels: [] } } } }).replace('"ARGS"', sent)}\n`;
  const read = parseHistory(text);
  const args =
    read.records.find((r) => r.type === "call")?.type === "call"
      ? (read.records.find((r) => r.type === "call") as Extract<HistoryRecord, { type: "call" }>).args
      : {};
  assert.ok(Object.hasOwn(args, "__proto__"), "the key survives the reader");
  const rules = byId(rulesFromOracles(checkHistory(read)));
  assert.equal(rules.get("SCH-06")?.verdict, "fail");
  assert.deepEqual(
    rules.get("SCH-06")?.violations.map((v) => v.oracle),
    ["rejected-input"],
  );
});
