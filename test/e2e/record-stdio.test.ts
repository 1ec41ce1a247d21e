import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { readHistory, type CallRecord } from "../../harness/history/format.js";
import { ORACLES } from "../../harness/oracles/index.js";
import { check, childrenOf, gone, recorderArgs, SIMULATED_BROKER, stdioSession } from "../support/recorder.js";

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "lomi-record-"));
const callsOf = (file: string) => readHistory(file).records.filter((r): r is CallRecord => r.type === "call");

/** A short session of a real agent: reads, two calls at once, a refusal, an operation and its reads. */
async function session(client: Client): Promise<unknown[]> {
  const replies: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    // In the order sent: two calls at once may be answered in either order.
    const at = replies.push(undefined) - 1;
    const r = await client.callTool({ name, arguments: args });
    replies[at] = r;
    return r.structuredContent as { data: Record<string, any> };
  };
  const list = await call("lomi_workspace_list", {});
  const workspaceId = list.data.workspaces.find((w: { approved: boolean }) => w.approved).workspaceId;
  const [connected] = await Promise.all([call("lomi_connect", { workspaceId }), call("lomi_panel_list", { workspaceId })]);
  await call("lomi_connect", { workspaceId: "no-such-workspace" });
  const created = await call("lomi_terminal_create", {
    workspaceId,
    cwdRelative: "",
    title: "Tests",
    expectedRevision: connected!.data.domainRevision,
    retryEpoch: connected!.data.retryEpoch,
    requestKey: "create-1",
  });
  await call("lomi_operation_get", { operationId: created.data.operation.operationId });
  return replies;
}

test("record over stdio (the broker in --broker-cmd): the SDK client gets the reference broker's replies unchanged, the history is valid, and check passes it", async () => {
  const history = path.join(scratch(), "traffic.jsonl");
  const direct = await stdioSession("agent-a", SIMULATED_BROKER);
  const expected = await session(direct.client);
  await direct.client.close();

  // The broker's command in --broker-cmd, with no -- on the line (as under the MCP Inspector's CLI); the other tests give it after --.
  const recorded = await stdioSession("agent-a", [
    "bin/lomi-conformance.js",
    "record",
    "--history",
    history,
    "--broker-cmd",
    [process.execPath, ...SIMULATED_BROKER].map((w) => `"${w}"`).join(" "),
  ]);
  const replies = await session(recorded.client);
  await recorded.client.close();
  assert.deepEqual(replies, expected, "every reply through the recorder is the broker's own");

  const calls = callsOf(history);
  assert.deepEqual(calls.map((c) => c.tool).sort(), [
    "lomi_connect",
    "lomi_connect",
    "lomi_operation_get",
    "lomi_panel_list",
    "lomi_terminal_create",
    "lomi_workspace_list",
  ]);
  assert.ok(
    calls.every((c) => c.agent === "agent-a" && c.connection === "stdio-1"),
    "agent from initialize's clientInfo, one connection",
  );
  const overlapping = calls.filter((c) => c.concurrent !== undefined);
  assert.deepEqual(overlapping.map((c) => c.tool).sort(), ["lomi_connect", "lomi_panel_list"], "the two calls sent together share a mark");
  assert.equal(overlapping[0]!.concurrent, overlapping[1]!.concurrent);
  const refused = calls.find((c) => c.args.workspaceId === "no-such-workspace")!;
  assert.equal(refused.reply.status === "answered" && refused.reply.isError, true);

  const judged = check(history);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
  assert.match(judged.stdout, /6 calls/);
});

test("record passes bytes through unchanged both ways, and the broker's stderr, whatever they are", async () => {
  const history = path.join(scratch(), "echo.jsonl");
  // A "broker" that echoes what it reads and logs to stderr: what comes back must be what went in.
  const echo = ["-e", "process.stderr.write('broker log line\\n'); process.stdin.pipe(process.stdout)"];
  const recorder = spawn(process.execPath, recorderArgs(history, echo), { stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  let err = "";
  recorder.stdout.on("data", (c: Buffer) => out.push(c));
  recorder.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const call = Buffer.from(`{"jsonrpc":"2.0","id":"x1","method":"tools/call","params":{"name":"lomi_workspace_list","arguments":{"note":"é ✓ \\u0000"}}}\r\n`);
  const parts = [
    Buffer.from("not json at all\n"),
    call.subarray(0, 17),
    call.subarray(17),
    Buffer.from([0xff, 0xfe, 0x0a]),
    Buffer.from("a last line without its newline"),
  ];
  for (const p of parts) {
    recorder.stdin.write(p);
    await new Promise((r) => setTimeout(r, 10));
  }
  recorder.stdin.end();
  const [code] = await once(recorder, "exit");
  assert.equal(code, 0);
  assert.deepEqual(Buffer.concat(out), Buffer.concat(parts));
  assert.match(err, /broker log line/);
  const [lost] = callsOf(history);
  assert.deepEqual(lost!.reply, { status: "lost", reason: "the client closed the connection" }, "a call the client stopped waiting for is recorded lost");
  assert.deepEqual(lost!.args, { note: "é ✓ \u0000" });
});

test("record through a mutant broker: --live names the rule as it happens, and check fails it naming the rule", async () => {
  const history = path.join(scratch(), "mutant.jsonl");
  const mutant = ["mutants/lomi-mutant.js", "env-errors-without-iserror", "--simulate", "--approve-pairings"];
  const recorded = await stdioSession("agent-m", recorderArgs(history, mutant, ["--live"]));
  await recorded.client.callTool({ name: "lomi_workspace_list", arguments: {} });
  const refused = await recorded.client.callTool({ name: "lomi_connect", arguments: { workspaceId: "no-such-workspace" } });
  assert.equal(refused.isError, false, "the mutant's defect reaches the client unchanged");
  while (!/VIOLATION/.test(recorded.stderr())) await new Promise((r) => setTimeout(r, 20));
  await recorded.client.close();

  const lines = recorded.stderr().split("\n");
  const violations = lines.filter((l) => l.includes("VIOLATION"));
  assert.equal(violations.length, 1, recorded.stderr());
  assert.match(violations[0]!, /ENV-02.*\(envelopes\) \[records 2\]/);
  // What recorded traffic cannot judge, said once, each rule once: the ledger oracles' rules, in one line.
  const notJudged = lines.filter((l) => /not judged|not applicable|effect ledger/.test(l));
  assert.equal(notJudged.length, 1, recorded.stderr());
  const named = notJudged[0]!.match(/\b[A-Z]+-\d{2}\b/g) ?? [];
  assert.deepEqual(named, [...new Set(named)], "no rule named twice");
  assert.deepEqual(new Set(named), new Set(ORACLES.filter((o) => o.needsLedger).flatMap((o) => o.rules)), "every rule a ledger oracle judges");
  const withoutLedger = new Set(ORACLES.filter((o) => !o.needsLedger).flatMap((o) => o.rules));
  const [notAtAll] = notJudged[0]!.split("judged in part");
  assert.ok(
    (notAtAll!.match(/\b[A-Z]+-\d{2}\b/g) ?? []).every((id) => !withoutLedger.has(id)),
    "a rule another oracle judges is said to be judged in part, not unjudged",
  );
  assert.ok(!lines.some((l) => /\bpass/i.test(l)), "nothing reads as passed");

  const judged = check(history);
  assert.equal(judged.code, 1, judged.stdout);
  assert.match(judged.stdout, /FAIL ENV-02\n\s+lomi_connect replied status "error" with isError false.*\[records 2\] \(envelopes\)/);
  assert.match(judged.stdout, /VIOLATION of envelopes/);
});

test("a recorder killed with SIGKILL mid-session leaves a history check reads, and its broker ends", async () => {
  const history = path.join(scratch(), "killed.jsonl");
  const recorded = await stdioSession("agent-k", recorderArgs(history, SIMULATED_BROKER));
  for (let i = 0; i < 3; i++) await recorded.client.callTool({ name: "lomi_workspace_list", arguments: {} });
  const recorder = recorded.transport.pid!;
  const [broker] = childrenOf(recorder);
  process.kill(recorder, "SIGKILL");
  await gone(broker!);
  await recorded.client.close();

  assert.equal(callsOf(history).length, 3, "every answered call is on disk");
  const judged = check(history);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
});

test("a broker that dies under the recorder is recorded as a broker-crash; the client's restart appends a new connection", async () => {
  const dir = scratch();
  const history = path.join(dir, "crash.jsonl");
  const broker = [...SIMULATED_BROKER, "--store", path.join(dir, "receipts.sqlite")];
  const first = await stdioSession("agent-c", recorderArgs(history, broker));
  await first.client.callTool({ name: "lomi_workspace_list", arguments: {} });
  const [child] = childrenOf(first.transport.pid!);
  const closed = new Promise<void>((resolve) => (first.client.onclose = resolve));
  process.kill(child!, "SIGKILL");
  await closed; // the recorder ends with its broker, so the client sees its server gone

  const second = await stdioSession("agent-c", recorderArgs(history, broker));
  await second.client.callTool({ name: "lomi_workspace_list", arguments: {} });
  await second.client.close();

  const records = readHistory(history).records;
  assert.deepEqual(
    records.map((r) =>
      r.type === "call" ? `call ${r.connection}` : r.type === "fault" ? `${r.kind} ${String(r.detail.connection)} ${String(r.detail.signal)}` : r.type,
    ),
    ["header", "call stdio-1", "broker-crash stdio-1 SIGKILL", "call stdio-2"],
  );
  assert.equal(
    readFileSync(history, "utf8")
      .split("\n")
      .filter((l) => l.includes('"header"')).length,
    1,
    "one header, however many sessions",
  );
  const judged = check(history);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
});
