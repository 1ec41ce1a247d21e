import assert from "node:assert/strict";
import { test } from "node:test";
import type { HistoryRecord } from "../../harness/history/format.js";
import { AGENT_CHECKS, judgeAgents, type AgentRuleVerdict } from "../../harness/agents/judge.js";
import { agentLiveLines, recordRanges, sidesLine } from "../../harness/agents/report.js";
import { findings } from "../../harness/record/live.js";
import { checkHistory } from "../../harness/oracles/index.js";
import { loadRules } from "../../harness/rules.js";
import { admit, call, connect, EPOCH, errorReply, events, get, history, runArgs } from "../support/histories.js";

// Small hand-written histories, each a situation of one agent rule, and what the judgement says of it.

const verdictOf = (records: HistoryRecord[], rule: string, agent?: string): AgentRuleVerdict => {
  const judged = judgeAgents(history(records));
  const j = agent === undefined ? judged[0] : judged.find((x) => x.label === agent);
  assert.ok(j, `no agent ${agent ?? ""} judged`);
  return j.verdicts.find((v) => v.rule === rule)!;
};
const lost = (args: Record<string, unknown>, o: { ms?: number; tool?: string } = {}) =>
  call(o.tool ?? "lomi_terminal_run", args, { status: "lost", reason: "JSON-RPC error -32001: Request timed out" }, o);
const running = (operationId: string, requestKey = "run-1") => ({ operationId, state: "running", effectState: "partial", requestKey });
const succeeded = (operationId: string, requestKey = "run-1") => ({ operationId, state: "succeeded", effectState: "complete", requestKey });

test("every agent rule of docs/rules.json has one check, in its order, and no check is of another rule", () => {
  assert.deepEqual(
    AGENT_CHECKS.map((c) => c.rule),
    loadRules().agent!.rules.map((r) => r.id),
  );
});

test("a history with no lost reply reads the lost-reply rule not exercised, never pass, with why; the rules its calls met pass", () => {
  const judged = verdictOf([connect(EPOCH), admit(running("op-1")), get(succeeded("op-1"))], "AGENT-08");
  assert.equal(judged.verdict, "not exercised");
  assert.deepEqual(judged.counts, { triggers: 0, kept: 0, broken: 0, undecided: 0 });
  assert.equal(judged.verdict === "not exercised" && judged.reason, "no operation call of the agent lost its reply");
  const read = verdictOf([connect(EPOCH), admit(running("op-1")), get(succeeded("op-1"))], "AGENT-04");
  assert.equal(read.verdict, "pass");
  assert.equal(read.counts.triggers, 1);
});

test("after a lost reply: the same request again keeps AGENT-08; a new key breaks it and AGENT-11; going on without it breaks AGENT-08 only once the history has ended", () => {
  const resent = [connect(EPOCH), lost(runArgs()), admit(running("op-1"), runArgs(), { duplicate: true }), get(succeeded("op-1"))];
  assert.equal(verdictOf(resent, "AGENT-08").verdict, "pass");
  assert.equal(verdictOf(resent, "AGENT-11").verdict, "pass");

  const freshKey = [connect(EPOCH), lost(runArgs()), admit(running("op-2", "run-2"), runArgs("run-2")), get(succeeded("op-2", "run-2"))];
  const lostRule = verdictOf(freshKey, "AGENT-08");
  assert.equal(lostRule.verdict, "fail");
  assert.deepEqual(lostRule.verdict === "fail" && lostRule.breaches.map((b) => b.records), [[2, 3]]);
  assert.match(lostRule.verdict === "fail" ? lostRule.breaches[0]!.message : "", /changed the request \(requestKey\)/);
  assert.equal(verdictOf(freshKey, "AGENT-11").verdict, "fail");

  const forgotten = [
    connect(EPOCH),
    lost(runArgs()),
    call(
      "lomi_panel_list",
      { workspaceId: "ws-alpha" },
      {
        status: "answered",
        isError: false,
        structuredContent: { controlApiVersion: "1.0", status: "ok", data: { workspaceId: "ws-alpha", domainRevision: "7", panels: [] } },
      },
    ),
  ];
  const dropped = verdictOf(forgotten, "AGENT-08");
  assert.equal(dropped.verdict, "fail");
  assert.equal(dropped.verdict === "fail" && dropped.breaches[0]!.atEnd, true, "decided by the end of the history: --live tells it only then");
  assert.deepEqual(agentLiveLines(judgeAgents(history(forgotten)), false), [], "not told while the history may still grow");
  assert.equal(agentLiveLines(judgeAgents(history(forgotten)), true).length, 1);

  const cutOff = verdictOf([connect(EPOCH), lost(runArgs())], "AGENT-08");
  assert.equal(cutOff.verdict, "not exercised", "the lost call is the agent's last: the history, not the agent, stopped");
  assert.equal(cutOff.counts.undecided, 1);
  assert.match(cutOff.verdict === "not exercised" ? cutOff.reason : "", /arose 1 time\(s\), none the history could judge/);
});

test("an operation left unsettled breaks AGENT-04; one the agent still reads when the history ends is not judged", () => {
  const left = verdictOf([connect(EPOCH), admit(running("op-1")), get(running("op-1")), connect("epoch-bbbbbbbb")], "AGENT-04");
  assert.equal(left.verdict, "fail");
  assert.deepEqual(left.verdict === "fail" && left.breaches[0]!.records, [2, 3]);
  const reading = verdictOf([connect(EPOCH), admit(running("op-1")), get(running("op-1"))], "AGENT-04");
  assert.equal(reading.verdict, "not exercised");
});

test("a second command on a terminal before the first is shown settled breaks AGENT-01; after it, keeps it", () => {
  const second = runArgs("run-2", "npm run build");
  assert.equal(
    verdictOf(
      [connect(EPOCH), admit(running("op-1")), admit(running("op-2", "run-2"), second), get(succeeded("op-1")), get(succeeded("op-2", "run-2"))],
      "AGENT-01",
    ).verdict,
    "fail",
  );
  assert.equal(
    verdictOf(
      [connect(EPOCH), admit(running("op-1")), get(succeeded("op-1")), admit(running("op-2", "run-2"), second), get(succeeded("op-2", "run-2"))],
      "AGENT-01",
    ).verdict,
    "pass",
  );
});

test("an empty events page: the next read with its cursor keeps AGENT-06, one without breaks it", () => {
  const before = [
    connect(EPOCH),
    admit(running("op-1")),
    events([{ sequence: "1", operationId: "op-1", previousState: null, state: "running" }]),
    events([], { cursor: "1", next: "1" }),
  ];
  assert.equal(
    verdictOf([...before, events([{ sequence: "2", operationId: "op-1", previousState: "running", state: "succeeded" }], { cursor: "1" })], "AGENT-06").verdict,
    "pass",
  );
  const restarted = verdictOf([...before, events([{ sequence: "2", operationId: "op-1", previousState: "running", state: "succeeded" }])], "AGENT-06");
  assert.equal(restarted.verdict, "fail");
  assert.match(restarted.verdict === "fail" ? restarted.breaches[0]!.message : "", /from the start \(no cursor\)/);
});

test("targets: an ID the agent was shown keeps AGENT-02, a display name it was shown breaks it, a value it was shown neither way is not judged", () => {
  const listed = call(
    "lomi_workspace_list",
    {},
    {
      status: "answered",
      isError: false,
      structuredContent: {
        controlApiVersion: "1.0",
        status: "ok",
        data: { workspaces: [{ workspaceId: "ws-alpha", name: "Alpha", approved: true, domainRevision: "7" }] },
      },
    },
  );
  const connectTo = (workspaceId: string) => call("lomi_connect", { workspaceId }, errorReply("NOT_FOUND"));
  assert.equal(verdictOf([listed, connectTo("ws-alpha")], "AGENT-02").verdict, "pass");
  assert.equal(verdictOf([listed, connectTo("Alpha")], "AGENT-02").verdict, "fail");
  assert.equal(verdictOf([listed, connectTo("ws-from-config")], "AGENT-02").verdict, "not exercised");
});

test("a refused epoch used again for a new submission breaks AGENT-12; RESOURCE_EXHAUSTED then lomi_connect breaks AGENT-14", () => {
  const refused = call("lomi_terminal_run", runArgs("run-1"), errorReply("RETRY_EPOCH_INVALID"));
  assert.equal(
    verdictOf([connect(EPOCH), refused, call("lomi_terminal_run", runArgs("run-2"), errorReply("RETRY_EPOCH_INVALID"))], "AGENT-12").verdict,
    "fail",
  );
  assert.equal(
    verdictOf([connect(EPOCH), refused, connect("epoch-bbbbbbbb"), admit(running("op-1"), runArgs("run-1", "npm test", "epoch-bbbbbbbb"))], "AGENT-12").verdict,
    "pass",
  );
  const full = call("lomi_terminal_run", runArgs("run-1"), errorReply("RESOURCE_EXHAUSTED"));
  assert.equal(verdictOf([connect(EPOCH), full, connect("epoch-bbbbbbbb")], "AGENT-14").verdict, "fail");
});

test("an agent is its client name and version: two versions of one client are judged apart; a history without versions names the agent alone", () => {
  const v1 = { ...connect(EPOCH), agentVersion: "1.2" } as HistoryRecord;
  const v2 = {
    ...(call("lomi_panel_list", { workspaceId: "ws-alpha", requestKey: "k" }, errorReply("INVALID_ARGUMENT")) as object),
    agentVersion: "1.3",
  } as HistoryRecord;
  const judged = judgeAgents(history([v1, v2]));
  assert.deepEqual(
    judged.map((j) => j.label),
    ["agent-a 1.2", "agent-a 1.3"],
  );
  assert.equal(judged[1]!.verdicts.find((v) => v.rule === "AGENT-03")!.verdict, "fail");
  assert.equal(judged[0]!.verdicts.find((v) => v.rule === "AGENT-03")!.verdict, "pass");
  assert.deepEqual(
    judgeAgents(history([connect(EPOCH)])).map((j) => j.label),
    ["agent-a"],
  );
});

test("a check that throws reads unknown for that rule alone; every other verdict stands", () => {
  const throwing = {
    rule: "AGENT-03",
    none: "-",
    trials: () => {
      throw new Error("kit bug");
    },
  };
  const [j] = judgeAgents(history([connect(EPOCH), admit(running("op-1")), connect("epoch-bbbbbbbb")]), [AGENT_CHECKS[3]!, throwing]);
  assert.deepEqual(
    j!.verdicts.map((v) => v.verdict),
    ["fail", "unknown"],
  );
});

test("both sides in one line, records as runs", () => {
  assert.equal(recordRanges([19, 17, 18, 23, 23]), "17–19, 23");
  const records = [
    connect(EPOCH),
    {
      ...(call("lomi_operation_get", { operationId: "op-1", requestKey: "k" }, errorReply("INVALID_ARGUMENT")) as object),
      agentVersion: "1.2",
      agent: "claude-code",
    } as HistoryRecord,
  ];
  const h = history(records);
  assert.equal(
    sidesLine(checkHistory(h), judgeAgents(h)),
    "broker: no violation; agent agent-a: no violation; agent claude-code 1.2: AGENT-03 violated at record 2",
  );
  assert.equal(sidesLine(undefined, []), "broker: not judged; no agent made a call");
});

test("a reply in flight with a call is not something the agent was shown before sending it: a refresh sent beside a layout mutation does not make its revision stale", () => {
  const create = (revision: string, requestKey: string) => ({
    workspaceId: "ws-alpha",
    cwdRelative: "",
    title: "T",
    expectedRevision: revision,
    retryEpoch: EPOCH,
    requestKey,
  });
  const panels = (revision: string) =>
    call(
      "lomi_panel_list",
      { workspaceId: "ws-alpha" },
      {
        status: "answered",
        isError: false,
        structuredContent: { controlApiVersion: "1.0", status: "ok", data: { workspaceId: "ws-alpha", domainRevision: revision, panels: [] } },
      },
    );
  const together = (r: HistoryRecord): HistoryRecord => ({ ...(r as object), concurrent: "overlap-1" }) as HistoryRecord;
  const created = { operationId: "op-1", state: "succeeded", effectState: "complete", requestKey: "create-1", tool: "lomi_terminal_create" };
  // connect showed 7; the refresh sent beside the create came back first, showing the 8 the create made.
  const side = [connect(EPOCH), together(panels("8")), together(admit(created, create("7", "create-1") as unknown as Parameters<typeof admit>[1]))];
  assert.equal(verdictOf(side, "AGENT-05").verdict, "pass");
  // The same replies one after the other: the agent had been shown 8 and sent 7.
  assert.equal(
    verdictOf([connect(EPOCH), panels("8"), admit(created, create("7", "create-1") as unknown as Parameters<typeof admit>[1])], "AGENT-05").verdict,
    "fail",
  );
});

test("record --live: an agent's final breach at once, one only the end decides when the recording stops, then both sides in a line", () => {
  const records = history([
    connect(EPOCH),
    call("lomi_panel_list", { workspaceId: "ws-alpha", requestKey: "k" }, errorReply("INVALID_ARGUMENT")),
    lost(runArgs()),
    connect("epoch-bbbbbbbb"),
  ]).records;
  const running = findings(records);
  assert.deepEqual(
    running.filter((l) => l.includes("AGENT")).map((l) => l.replace(/ \[.*/, "")),
    ["lomi-conformance record: AGENT VIOLATION AGENT-03 by agent-a"],
  );
  const ended = findings(records, true);
  assert.deepEqual(
    ended.filter((l) => l.includes("AGENT VIOLATION")).map((l) => l.replace(/ \[.*/, "")),
    ["lomi-conformance record: AGENT VIOLATION AGENT-03 by agent-a", "lomi-conformance record: AGENT VIOLATION AGENT-08 by agent-a"],
  );
  assert.equal(ended.at(-1), "lomi-conformance record: broker: no violation; agent agent-a: AGENT-03 violated at record 2, AGENT-08 violated at record 3");
});
