import assert from "node:assert/strict";
import { test } from "node:test";
import type { HistoryRecord } from "../../harness/history/format.js";
import { indexedCalls } from "../../harness/history/replies.js";
import { refusalRulesFromHistory } from "../../harness/oracles/unexpected-answers.js";
import { call, crash, errorReply, history } from "../support/histories.js";

// An ordered input the broker refused, where the scenario needed it taken: the rule the refusal
// contradicts, as the history shows it (docs/explore.md, "What each finding blames").

const ok = (data: Record<string, unknown>) => ({
  status: "answered" as const,
  isError: false,
  structuredContent: { controlApiVersion: "1.0", status: "ok", data },
});
const grant = call(
  "lomi_lease_acquire",
  { workspaceId: "ws-alpha", runtime: { kind: "terminal", terminalSessionId: "term-1" } },
  ok({ leaseId: "lease-1", workspaceId: "ws-alpha", nextInputSequence: "1" }),
);
const args = (seq: string, text: string) => ({ workspaceId: "ws-alpha", terminalSessionId: "term-1", leaseId: "lease-1", inputSequence: seq, text });
const sent = (seq: string, text: string) =>
  call(
    "lomi_terminal_input",
    args(seq, text),
    ok({ leaseId: "lease-1", inputSequence: seq, dispatchId: `input-${seq}`, acknowledged: "dispatched", terminalSessionId: "term-1" }),
  );
const refused = (seq: string, text: string, code: string) => call("lomi_terminal_input", args(seq, text), errorReply(code));

/** The rules the last call's refusal fails, the scenario citing `cited`. */
function blamed(records: HistoryRecord[], cited: string[] = []): string[] {
  const h = history(records);
  const calls = indexedCalls(h);
  const crashes = h.records.flatMap((r, i) => (r.type === "fault" && r.kind === "broker-crash" ? [i] : []));
  return refusalRulesFromHistory({ calls, crashes, faults: [] }, calls.at(-1)!, cited);
}

test("a retry of an acknowledged input refused once its lease expired: INPUT-18 (a retry needs no lease)", () => {
  assert.deepEqual(blamed([grant, sent("1", "ls\n"), refused("1", "ls\n", "LEASE_EXPIRED")]), ["INPUT-18"]);
});

test("a retry of an acknowledged input refused as out of order: INPUT-03", () => {
  assert.deepEqual(blamed([grant, sent("1", "ls\n"), sent("2", "pwd\n"), refused("1", "ls\n", "INPUT_SEQUENCE_CONFLICT")]), ["INPUT-03"]);
});

test("after a restart the history is gone with the lease: a refused retry blames nothing (INPUT-11)", () => {
  assert.deepEqual(blamed([grant, sent("1", "ls\n"), crash(), refused("1", "ls\n", "LEASE_EXPIRED")]), []);
});

test("the sequence after a lost input refused: the next one goes on (INPUT-02, INPUT-19)", () => {
  const lost = call("lomi_terminal_input", args("1", "make\n"), errorReply("NATIVE_UNAVAILABLE"));
  assert.deepEqual(blamed([grant, lost, refused("2", "echo done\n", "INPUT_SEQUENCE_CONFLICT")], ["INPUT-19"]), ["INPUT-19"]);
  assert.deepEqual(blamed([grant, lost, refused("2", "echo done\n", "INPUT_SEQUENCE_CONFLICT")]).sort(), ["INPUT-02", "INPUT-19"]);
});

test("a skip ahead refused is right: no rule", () => {
  assert.deepEqual(blamed([grant, refused("2", "ls\n", "INPUT_SEQUENCE_GAP")]), []);
});
