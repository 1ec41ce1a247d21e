import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkHistory, failuresOf } from "../../harness/oracles/index.js";
import type { History } from "../../harness/history/format.js";
import {
  admit,
  call,
  cancel,
  connect,
  crash,
  dispatch,
  effect,
  entryOf,
  EPOCH,
  errorReply,
  events,
  get,
  getRefused,
  history,
  input,
  ledger,
  reconcile,
  replay,
  runArgs,
  settle,
} from "../support/histories.js";

/** The arguments of a run on another terminal than runArgs' (term-1): another serialization target. */
const onTerm2 = (requestKey: string) => ({ ...runArgs(requestKey), terminalSessionId: "term-2" });
const failed = (h: History) => failuresOf(checkHistory(h)).map((f) => f.id);
/** Only oracle `id` fails, and its findings blame exactly `rules`, each one its oracle makes checkable. */
const only = (h: History, id: string, rules: string[]) => {
  const failures = failuresOf(checkHistory(h));
  const ids = failures.map((f) => f.id);
  assert.deepEqual(
    ids,
    [id],
    `expected only ${id} to fail, got ${ids.join(", ") || "none"}: ${JSON.stringify(failures.flatMap((f) => f.violations.map((v) => v.message)))}`,
  );
  const blamed = [...new Set(failures[0]!.violations.flatMap((v) => v.rules))].sort();
  assert.deepEqual(blamed, [...rules].sort(), `${id} blames ${blamed.join(", ")}: ${failures[0]!.violations.map((v) => v.message).join("; ")}`);
  for (const r of blamed) assert.ok(failures[0]!.rules.includes(r), `${id} blames ${r}, which it does not list among its rules`);
};
const clean = (h: History) =>
  assert.deepEqual(
    failuresOf(checkHistory(h)).flatMap((f) => f.violations.map((v) => `${f.id}: ${v.message}`)),
    [],
  );

const op = "op-1";
const r = (state: string, effectState = "none") => ({ operationId: op, state, effectState });

describe("legal histories the checker must not flag", () => {
  test("queued → awaiting_user → running → succeeded, running never seen before the decision", () => {
    clean(
      history(
        [
          admit(r("queued")),
          get(r("awaiting_user")),
          get(r("running", "partial")),
          get(r("succeeded", "complete")),
          dispatch(op),
          effect(op),
          settle(op, "succeeded", "complete"),
        ],
        true,
      ),
    );
  });

  test("reads that skip states (queued, then succeeded) and an operation settling long after admission", () => {
    clean(
      history([
        admit(r("queued")),
        get(r("running"), { ms: 100 }),
        get(r("running"), { ms: 400 }),
        get(r("succeeded", "complete"), { ms: 900 }),
        get(r("succeeded", "complete"), { ms: 950 }),
      ]),
    );
  });

  test("identifiers of other lengths and alphabets", () => {
    const id = { operationId: "OP_9.x:Z-000000000000000000000042", state: "succeeded", effectState: "complete" };
    clean(history([admit({ ...id, state: "running" }), get(id)]));
  });

  test("an events feed with a page size of one, continued by its cursors", () => {
    clean(
      history([
        events([{ sequence: "1", operationId: op, previousState: null, state: "queued" }]),
        events([{ sequence: "2", operationId: op, previousState: "queued", state: "running" }], { cursor: "1" }),
        events([{ sequence: "3", operationId: op, previousState: "running", state: "running", effectState: "partial" }], { cursor: "2" }),
        events([], { cursor: "3" }),
        events([{ sequence: "5", operationId: op, previousState: "running", state: "succeeded", effectState: "complete" }], { cursor: "3" }),
      ]),
    );
  });

  test("a fresh read of the feed from its start repeats earlier events without flagging them", () => {
    const first = { sequence: "1", operationId: op, previousState: null, state: "queued" };
    clean(
      history([events([first]), events([first]), events([{ sequence: "2", operationId: op, previousState: "queued", state: "cancelled" }], { cursor: "1" })]),
    );
  });

  test("refusals with any typed code the rules allow: a stale epoch after a crash, a changed retry refused before the identity is looked up", () => {
    clean(
      history([
        connect(EPOCH),
        admit(r("running")),
        crash(),
        get(r("outcome_unknown", "unknown")),
        call("lomi_terminal_run", runArgs("run-2"), errorReply("RETRY_EPOCH_INVALID")),
        call("lomi_terminal_run", runArgs("run-3"), errorReply("RETRY_EPOCH_EXPIRED")),
        call("lomi_terminal_run", runArgs("run-1", "npm run build"), errorReply("PAIRING_REQUIRED")),
        call("lomi_terminal_run", runArgs("run-1", "npm run build"), errorReply("IDEMPOTENCY_CONFLICT")),
        admit(r("outcome_unknown", "unknown"), runArgs("run-1"), { duplicate: true }),
      ]),
    );
  });

  test("a crash turns an unfinished operation outcome_unknown; a settled one stays as it was", () => {
    const done = { operationId: "op-2", requestKey: "run-2", state: "succeeded", effectState: "complete" };
    clean(
      history(
        // op-2 runs on another terminal: on op-1's it would have waited queued (SERIAL-01).
        [
          admit(r("running", "partial")),
          admit(done, onTerm2("run-2")),
          crash(),
          get(r("outcome_unknown", "unknown")),
          get(done),
          dispatch(op),
          dispatch("op-2", onTerm2("run-2")),
          effect("op-2"),
          settle("op-2", "succeeded", "complete"),
        ],
        true,
      ),
    );
  });

  test("a dispatch under a request key of the broker's own, for the operation the agent's admission named, before a crash", () => {
    // Lomi ignores the retry identity (docs/native-bridge.md): no rule judges the key a broker forwards.
    const own = { ...runArgs(), requestKey: "broker-made-1" };
    clean(history([admit(r("running")), dispatch(op, own), crash(0, { ledgerSequence: Number.MAX_SAFE_INTEGER }), get(r("outcome_unknown", "unknown"))], true));
  });

  test("an operation admitted at the very end of its epoch's 24 hours", () =>
    clean(history([connect(EPOCH), admit(r("running"), runArgs(), { ms: 24 * 3600_000 })])));

  test("calls in flight together may be recorded in either order", () => {
    const together = (rec: ReturnType<typeof get>) => ({ ...rec, concurrent: "burst-1" }) as typeof rec;
    clean(history([admit(r("queued")), together(get(r("running"))), together(cancel(r("queued"), "cancelling")), get(r("running"))]));
  });

  test("a cancel while queued: nothing dispatched, events queued → cancelled", () => {
    clean(
      history(
        [
          admit(r("queued")),
          cancel(r("cancelled"), "cancelled"),
          events([
            { sequence: "1", operationId: op, previousState: null, state: "queued" },
            { sequence: "2", operationId: op, previousState: "queued", state: "cancelled" },
          ]),
        ],
        true,
      ),
    );
  });

  test("the same input repeated acknowledges the prior dispatch", () => {
    clean(
      history([
        input("1", "ls\n", { dispatchId: "input-1", acknowledged: "dispatched" }),
        input("1", "ls\n", { dispatchId: "input-1", acknowledged: "prior-dispatch" }),
        input("2", "pwd\n", { dispatchId: "input-2", acknowledged: "dispatched" }),
      ]),
    );
  });

  test("without a ledger, the ledger invariants are not applicable, never passed", () => {
    const verdicts = checkHistory(history([admit(r("running"))]));
    const na = verdicts.filter((v) => v.verdict === "not-applicable").map((v) => v.id);
    assert.deepEqual(na.sort(), [
      "effect-state-agrees",
      "effects-requested",
      "input-delivered-once",
      "one-at-a-time-per-target",
      "one-dispatch-per-receipt",
      "receipt-before-dispatch",
      "refusals-dispatch-nothing",
    ]);
  });

  test("a reconciliation removes an operation the agent never saw settle, which Lomi settled a retention before it: the broker settled it unseen", () => {
    const day = 25 * 3_600_000;
    clean(
      history(
        [admit(r("queued")), dispatch(op), effect(op), settle(op, "succeeded", "complete"), reconcile({ ms: day }), getRefused(op, "NOT_FOUND", { ms: day })],
        true,
      ),
    );
  });
});

describe("histories that break an invariant are flagged by it", () => {
  test("a settled operation read again as another state", () =>
    only(history([admit(r("running")), get(r("succeeded", "complete")), cancel(r("cancelled", "complete"), "cancelled")]), "legal-transitions", [
      "OP-02",
      "CANCEL-03",
    ]));
  test("a state no legal transitions reach (running, then queued)", () =>
    only(history([admit(r("running")), get(r("queued"))]), "legal-transitions", ["OP-02"]));

  test("an identical retry makes another operation", () =>
    only(history([admit(r("running")), admit({ operationId: "op-2", state: "running", effectState: "none" }, runArgs("run-1"))]), "idempotency", ["IDEM-01"]));
  test("an identical retry answers IDEMPOTENCY_CONFLICT", () =>
    only(history([admit(r("running")), call("lomi_terminal_run", runArgs(), errorReply("IDEMPOTENCY_CONFLICT"))]), "idempotency", ["IDEM-01"]));
  test("changed arguments return the prior operation", () =>
    only(history([admit(r("running")), admit(r("running"), runArgs("run-1", "npm run build"), { duplicate: true })]), "idempotency", ["IDEM-02"]));
  test("changed arguments refused with a code that is not IDEMPOTENCY_CONFLICT", () =>
    only(history([admit(r("running")), call("lomi_terminal_run", runArgs("run-1", "npm run build"), errorReply("NATIVE_FAILURE"))]), "idempotency", [
      "IDEM-02",
    ]));

  test("the pairing's own receipt answers NOT_FOUND after a restart", () =>
    only(history([admit(r("succeeded", "complete")), crash(), getRefused(op, "NOT_FOUND")]), "receipts-readable", ["IDEM-05", "DUR-02"]));
  test("a reconciliation removes an operation Lomi never settled, neither named nor seen settled", () =>
    only(
      history([admit(r("running")), dispatch(op), reconcile({ ms: 25 * 3_600_000 }), getRefused(op, "NOT_FOUND", { ms: 25 * 3_600_000 })], true),
      "receipts-readable",
      ["CAP-04"],
    ));
  test("a reconciliation removes an operation Lomi settled within the retention, unseen", () =>
    only(
      history(
        [
          admit(r("running")),
          dispatch(op),
          effect(op),
          settle(op, "succeeded", "complete"),
          reconcile({ ms: 23 * 3_600_000 }),
          getRefused(op, "NOT_FOUND", { ms: 23 * 3_600_000 }),
        ],
        true,
      ),
      "receipts-readable",
      ["CAP-04"],
    ));
  test("a failed operation read as an MCP error", () => only(history([admit(r("running")), getRefused(op, "NATIVE_FAILURE")]), "receipts-readable", ["OP-03"]));
  test("another pairing reads the receipt", () =>
    only(history([admit(r("running")), get(r("running"), { agent: "agent-b" })]), "pairing-isolation", ["AUTH-05"]));

  test("outcome_unknown with no crash", () =>
    only(history([admit(r("running")), get(r("outcome_unknown", "unknown"))]), "outcome-unknown-after-crash", ["DUR-01"]));
  test("outcome_unknown for an operation already settled before the crash", () =>
    assert.ok(
      failed(history([admit(r("running")), get(r("succeeded", "complete")), crash(), get(r("outcome_unknown", "unknown"))])).includes(
        "outcome-unknown-after-crash",
      ),
    ));
  test("outcome_unknown with a known effectState", () =>
    only(history([admit(r("running")), crash(), get(r("outcome_unknown", "complete"))]), "outcome-unknown-after-crash", ["DUR-01"]));

  test("the feed leaves out a transition", () =>
    only(
      history([
        events([
          { sequence: "1", operationId: op, previousState: null, state: "queued" },
          { sequence: "3", operationId: op, previousState: "running", state: "succeeded" },
        ]),
      ]),
      "events-in-order",
      ["EVT-01"],
    ));
  test("the feed shows an event twice after its cursor", () =>
    only(
      history([
        events([{ sequence: "1", operationId: op, previousState: null, state: "queued" }]),
        events([{ sequence: "1", operationId: op, previousState: null, state: "queued" }], { cursor: "1" }),
      ]),
      "events-in-order",
      ["EVT-01"],
    ));

  test("a new operation under the epoch of a crashed instance", () =>
    only(history([connect(EPOCH), crash(), admit(r("running"))]), "epoch-authority", ["EPOCH-01"]));
  test("a new operation under another connection's epoch", () =>
    only(history([connect(EPOCH, { connection: "c1" }), admit(r("running"), runArgs(), { connection: "c2" })]), "epoch-authority", ["EPOCH-04"]));
  test("a new operation under an epoch past its 24 hours", () =>
    only(history([connect(EPOCH), admit(r("running"), runArgs(), { ms: 24 * 3600_000 + 1 })]), "epoch-authority", ["EPOCH-03"]));

  test("an input sequence dispatched twice", () =>
    only(
      history([
        input("1", "ls\n", { dispatchId: "input-1", acknowledged: "dispatched" }),
        input("1", "ls\n", { dispatchId: "input-2", acknowledged: "dispatched", inputSequence: "1" }),
      ]),
      "input-once",
      ["INPUT-03"],
    ));
  test("an input acknowledged under another sequence than sent", () =>
    only(history([input("1", "ls\n", { dispatchId: "input-1", acknowledged: "dispatched", inputSequence: "2" })]), "input-once", ["INPUT-02"]));

  test("a denied pairing asked to wait", () => {
    const denied = {
      type: "fault" as const,
      kind: "pairing-decision" as const,
      at: "2026-01-05T09:00:00.000Z",
      detail: { agent: "agent-c", decision: "deny" },
    };
    only(
      history([
        call("lomi_connect", { workspaceId: "ws-alpha" }, errorReply("PAIRING_REQUIRED"), { agent: "agent-c" }),
        denied,
        call("lomi_connect", { workspaceId: "ws-alpha" }, errorReply("PAIRING_REQUIRED"), { agent: "agent-c" }),
      ]),
      "pairing-decisions",
      ["AUTH-02"],
    );
  });

  test("an error envelope with isError false", () => {
    const reply = { ...errorReply("NOT_FOUND"), isError: false };
    only(history([call("lomi_operation_get", { operationId: "op-9" }, reply)]), "envelopes", ["ENV-02"]);
  });
  test("an unknown field accepted", () =>
    only(history([admit(r("running"), { ...runArgs(), colour: "blue" } as ReturnType<typeof runArgs>)]), "rejected-input", ["SCH-01"]));
  test("a lease runtime with a field of the other kind accepted: a mixed variant (SCH-11), not an unknown field", () => {
    const runtime = { kind: "terminal", terminalSessionId: "term-1" };
    const granted = {
      status: "answered" as const,
      isError: false,
      structuredContent: { controlApiVersion: "1.0", status: "ok", data: { leaseId: "lease-1", workspaceId: "ws-alpha", runtime, nextInputSequence: "1" } },
    };
    only(history([call("lomi_lease_acquire", { workspaceId: "ws-alpha", runtime: { ...runtime, generation: "gen-1" } }, granted)]), "rejected-input", [
      "SCH-11",
    ]);
  });
  test("a settings change with a setting of another section accepted", () => {
    const change = {
      workspaceId: "ws-alpha",
      section: "editor",
      values: { fontSize: 15, theme: "dark" },
      expectedSettingsRevision: "1",
      retryEpoch: EPOCH,
      requestKey: "set-1",
    };
    only(history([admit({ ...r("running"), tool: "lomi_settings_update", requestKey: "set-1" }, change)]), "rejected-input", ["SCH-41"]);
  });

  test("a replay in the ledger", () => only(history([admit(r("running")), dispatch(op), replay(op)], true), "one-dispatch-per-receipt", ["IDEM-01"]));
  test("one receipt key dispatched as two operations", () =>
    only(
      history(
        [
          admit(r("running")),
          admit({ operationId: "op-2", requestKey: "run-2", state: "running", effectState: "none" }, onTerm2("run-2")),
          dispatch("op-1", runArgs(), "k"),
          dispatch("op-2", onTerm2("run-2"), "k"),
        ],
        true,
      ),
      "one-dispatch-per-receipt",
      ["IDEM-01"],
    ));
  test("a second run on a terminal whose first Lomi still holds", () =>
    only(
      history(
        [
          admit(r("running")),
          admit({ operationId: "op-2", requestKey: "run-2", state: "running", effectState: "none" }, runArgs("run-2")),
          dispatch("op-1"),
          dispatch("op-2", runArgs("run-2")),
        ],
        true,
      ),
      "one-at-a-time-per-target",
      ["SERIAL-01"],
    ));
  test("a dispatch whose receipt its pairing cannot find (the admission's reply was lost)", () =>
    only(
      history([call("lomi_terminal_run", runArgs(), { status: "lost", reason: "no reply" }), dispatch("op-7"), getRefused("op-7", "NOT_FOUND")], true),
      "receipt-before-dispatch",
      ["DUR-06"],
    ));
  test("Lomi received other arguments than the client sent", () =>
    only(history([admit(r("running")), dispatch(op, runArgs("run-1", "rm -rf /"))], true), "effects-requested", ["IDEM-03"]));
  test("work no agent asked for: a dispatch under a request key nobody sent", () =>
    only(history([admit(r("running")), dispatch(op), dispatch("op-9", runArgs("run-1.resumed"))], true), "effects-requested", ["DUR-06"]));
  test("one request dispatched as two operations, under two receipt keys", () =>
    only(history([admit(r("running")), dispatch(op), crash(), dispatch("op-2", runArgs())], true), "effects-requested", ["IDEM-01", "DUR-03"]));
  test("a request the broker refused was dispatched anyway", () =>
    only(history([call("lomi_terminal_run", runArgs(), errorReply("REVISION_CONFLICT")), dispatch("op-5")], true), "refusals-dispatch-nothing", ["REV-01"]));
  test("succeeded where Lomi settled nothing", () =>
    only(history([admit(r("running")), dispatch(op), get(r("succeeded", "complete"))], true), "effect-state-agrees", ["OP-04"]));
  test("effectState other than Lomi's settlement", () =>
    only(history([admit(r("running")), dispatch(op), settle(op, "failed", "partial"), get(r("failed", "none"))], true), "effect-state-agrees", ["OP-04"]));
  // Lomi's settlement of another tool than the terminal run the helpers record.
  const settledAs = (tool: string, state: "succeeded" | "failed", effectState: "complete" | "partial") =>
    ledger({ kind: "settle", ...entryOf(op), tool, detail: { state, error: null }, effectState });
  test("an upload Lomi settled succeeded, read failed: OP-20, how an upload settles (not OP-04: the effectState agrees)", () =>
    only(
      history([admit(r("running")), dispatch(op), settledAs("lomi_browser_upload", "succeeded", "complete"), get(r("failed", "complete"))], true),
      "effect-state-agrees",
      ["OP-20"],
    ));
  test("a browser open whose page did not load, read with effectState none: OP-04 and OP-22, which names it", () =>
    only(
      history([admit(r("running")), dispatch(op), settledAs("lomi_browser_open", "failed", "partial"), get(r("failed", "none"))], true),
      "effect-state-agrees",
      ["OP-04", "OP-22"],
    ));
  test("queued → cancelled although Lomi received the dispatch", () =>
    only(
      history(
        [
          admit(r("queued")),
          dispatch(op),
          events([
            { sequence: "1", operationId: op, previousState: null, state: "queued" },
            { sequence: "2", operationId: op, previousState: "queued", state: "cancelled" },
          ]),
        ],
        true,
      ),
      "effect-state-agrees",
      ["CANCEL-01"],
    ));
  test("a workspace's feed shows an operation of another workspace", () => {
    const feed = events([{ sequence: "1", operationId: op, previousState: null, state: "running" }]);
    const wrong = { ...feed, args: { workspaceId: "ws-beta" } } as typeof feed;
    only(history([admit(r("running")), wrong]), "events-scoped", ["EVT-04"]);
  });
  test("a feed shows an operation of another pairing: the feed's scope (EVT-04), not a receipt read (AUTH-05)", () =>
    only(
      history([admit(r("running")), events([{ sequence: "1", operationId: op, previousState: null, state: "running" }], { agent: "agent-b" })]),
      "events-scoped",
      ["EVT-04"],
    ));
  test("a retry past its epoch's 24 hours refused RETRY_EPOCH_EXPIRED: a retry needs no new authority", () =>
    only(history([admit(r("running")), call("lomi_terminal_run", runArgs(), errorReply("RETRY_EPOCH_EXPIRED"), { ms: 25 * 3600_000 })]), "idempotency", [
      "IDEM-01",
      "EPOCH-03",
    ]));
  test("a retry after a restart refused RETRY_EPOCH_INVALID: the epoch still finds its receipts", () =>
    only(history([admit(r("running")), crash(), call("lomi_terminal_run", runArgs(), errorReply("RETRY_EPOCH_INVALID"))]), "idempotency", [
      "IDEM-01",
      "DUR-03",
      "EPOCH-01",
    ]));
  test("a cancelled command read with effectState none where Lomi's process start stands: cancel is no rollback", () =>
    only(
      history([admit(r("running")), dispatch(op), effect(op), settle(op, "cancelled", "partial"), get(r("cancelled", "none"))], true),
      "effect-state-agrees",
      ["OP-04", "CANCEL-04"],
    ));
  test("a settled state alone other than Lomi's names no rule: the steps judge it by their own", () =>
    only(
      history([admit(r("running")), dispatch(op), effect(op), settle(op, "failed", "partial"), get(r("cancelled", "partial"))], true),
      "effect-state-agrees",
      [],
    ));
  test("work no agent asked for right after a cancel found a save done: an undo", () => {
    const save = { operationId: op, tool: "lomi_chat_draft_save", requestKey: "draft-1", state: "succeeded", effectState: "complete" };
    const saveArgs = (text: string, requestKey: string) => ({
      workspaceId: "ws-alpha",
      conversationId: "conv-plan",
      text,
      expectedDraftRevision: "1",
      retryEpoch: EPOCH,
      requestKey,
    });
    const saved = (operationId: string, args: Record<string, unknown>) =>
      ledger({
        kind: "dispatch",
        operationId,
        tool: "lomi_chat_draft_save",
        pairingId: "pair-a",
        detail: { args, permit: { operationId, receiptKey: `key-${operationId}`, fingerprint: "f" } },
      });
    const done = ledger({
      kind: "settle",
      operationId: op,
      tool: "lomi_chat_draft_save",
      pairingId: "pair-a",
      detail: { state: "succeeded", error: null },
      effectState: "complete",
    });
    only(
      history(
        [
          admit(save, saveArgs("Keep me", "draft-1")),
          saved(op, saveArgs("Keep me", "draft-1")),
          done,
          cancel(save, "already_settled"),
          saved("op-9", saveArgs("", "draft-1.undo")),
        ],
        true,
      ),
      "effects-requested",
      ["CANCEL-03", "CANCEL-43"],
    );
  });
  test("a file write whose bytes Lomi received otherwise than sent: REV-32, not the payload's IDEM-03", () => {
    const write = (base64: string) => ({
      workspaceId: "ws-alpha",
      path: "scripts/test.cmd",
      expectedDiskRevision: null,
      content: { base64 },
      retryEpoch: EPOCH,
      requestKey: "w-1",
    });
    const sent = ledger({
      kind: "dispatch",
      operationId: op,
      tool: "lomi_file_write",
      pairingId: "pair-a",
      detail: { args: write("YQo="), permit: { operationId: op, receiptKey: "key-w", fingerprint: "f" } },
    });
    only(
      history([admit({ operationId: op, tool: "lomi_file_write", requestKey: "w-1", state: "running", effectState: "none" }, write("YQ0K")), sent], true),
      "effects-requested",
      ["REV-32"],
    );
  });
  test("identical inputs in flight together, both dispatched: INPUT-15 as well as INPUT-03", () => {
    const together = (rec: ReturnType<typeof input>) => ({ ...rec, concurrent: "burst-1" }) as typeof rec;
    only(
      history([
        together(input("1", "ls\n", { dispatchId: "input-1", acknowledged: "dispatched" })),
        together(input("1", "ls\n", { dispatchId: "input-2", acknowledged: "dispatched" })),
      ]),
      "input-once",
      ["INPUT-03", "INPUT-15"],
    );
  });
  test("an Android input dispatched twice: Android input is ordered like terminal input (INPUT-16)", () => {
    const tap = (dispatchId: string) =>
      call(
        "lomi_android_input",
        { workspaceId: "ws-mobile", panelId: "panel-pixel", generation: "g1", leaseId: "lease-1", inputSequence: "1", input: { kind: "tap", x: 1, y: 2 } },
        {
          status: "answered",
          isError: false,
          structuredContent: {
            controlApiVersion: "1.0",
            status: "ok",
            data: { leaseId: "lease-1", inputSequence: "1", dispatchId, acknowledged: "dispatched", panelId: "panel-pixel", generation: "g1" },
          },
        },
      );
    only(history([tap("input-1"), tap("input-2")]), "input-once", ["INPUT-03", "INPUT-16"]);
  });
  test("an input sequence Lomi received twice", () => {
    const inputDispatch = (n: number) =>
      ledger({
        kind: "dispatch",
        ...entryOf(`input-${n}`),
        tool: "lomi_terminal_input",
        detail: { args: { leaseId: "lease-1", inputSequence: "1", text: "ls\n" } },
      });
    only(
      history([input("1", "ls\n", { dispatchId: "input-1", acknowledged: "dispatched" }), inputDispatch(1), inputDispatch(2)], true),
      "input-delivered-once",
      ["INPUT-03"],
    );
  });
});

test("docs/explore.md lists each oracle with the rules its findings may blame", async () => {
  const { readFileSync } = await import("node:fs");
  const { kitPath } = await import("../../protocol/kit-root.js");
  const { ORACLES } = await import("../../harness/oracles/index.js");
  const doc = readFileSync(kitPath("docs/explore.md"), "utf8");
  for (const o of ORACLES.filter((x) => x.id !== "refusals-dispatch-nothing")) {
    const row = doc.match(new RegExp(`^\\| \`${o.id}\`(?: \\(ledger\\))? \\| ([^|]+) \\|`, "m"));
    assert.ok(row, `docs/explore.md has no row for ${o.id}`);
    assert.deepEqual(row[1]!.trim().split(", ").sort(), [...o.rules].sort(), `${o.id}'s rules in docs/explore.md`);
  }
});

test("a __proto__ key the agent sent is SCH-06's, in the oracle's finding and in the dispatch compared with it", () => {
  // As JSON.parse reads what the agent wrote: "__proto__" an own key.
  const sent = JSON.parse(`${JSON.stringify(runArgs()).slice(0, -1)},"__proto__":{"polluted":true}}`);
  const h = history([admit(r("running"), sent), dispatch(op, runArgs())], true);
  const failures = failuresOf(checkHistory(h));
  assert.deepEqual(failures.map((f) => f.id).sort(), ["effects-requested", "rejected-input"]);
  assert.deepEqual([...new Set(failures.flatMap((f) => f.violations.flatMap((v) => v.rules)))], ["SCH-06"]);
});

test("a setting of another section dropped on the way to Lomi is SCH-41's, in the oracle's finding and in the dispatch compared with it (not IDEM-03's)", () => {
  const change = (values: Record<string, unknown>) => ({
    workspaceId: "ws-alpha",
    section: "editor",
    values,
    expectedSettingsRevision: "1",
    retryEpoch: EPOCH,
    requestKey: "set-1",
  });
  const dispatched = ledger({
    kind: "dispatch",
    ...entryOf(op),
    tool: "lomi_settings_update",
    detail: { args: change({ fontSize: 15 }), permit: { operationId: op, receiptKey: "key-op-1", fingerprint: "f" } },
  });
  const h = history([admit({ ...r("running"), tool: "lomi_settings_update", requestKey: "set-1" }, change({ fontSize: 15, theme: "dark" })), dispatched], true);
  const failures = failuresOf(checkHistory(h));
  assert.deepEqual(failures.map((f) => f.id).sort(), ["effects-requested", "rejected-input"]);
  assert.deepEqual([...new Set(failures.flatMap((f) => f.violations.flatMap((v) => v.rules)))], ["SCH-41"]);
});
