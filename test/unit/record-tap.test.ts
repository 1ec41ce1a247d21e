import assert from "node:assert/strict";
import { test } from "node:test";
import type { CallRecord, HistoryRecord } from "../../harness/history/format.js";
import { HarnessError } from "../../harness/harness-error.js";
import { parseRecordArgs } from "../support/record-args.js";
import { jsonLines, sseMessages } from "../../harness/record/lines.js";
import { TrafficRecorder } from "../../harness/record/tap.js";

function recorder() {
  const records: HistoryRecord[] = [];
  let now = Date.parse("2026-01-05T09:00:00.000Z");
  const rec = new TrafficRecorder((r) => records.push(r), { now: () => (now += 1000) }, "stdio-1");
  const calls = () => records.filter((r): r is CallRecord => r.type === "call");
  return { rec, records, calls };
}

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const result = (id: number | string, structuredContent: unknown, isError = false) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent, isError },
});
const ok = { controlApiVersion: "1.0", status: "ok", data: { workspaces: [] } };

test("a call is recorded when its reply comes, with the agent and version initialize named and the mirror text block left out", () => {
  const { rec, calls } = recorder();
  const tap = rec.connection("stdio-1");
  tap.fromClient({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { clientInfo: { name: "claude-desktop", version: "1" }, capabilities: {}, protocolVersion: "2025-06-18" },
  });
  tap.fromServer({ jsonrpc: "2.0", id: 0, result: { serverInfo: { name: "b", version: "1" } } });
  tap.fromClient(call(1, "lomi_workspace_list"));
  assert.equal(calls().length, 0, "nothing before the reply");
  tap.fromServer(result(1, ok));
  assert.deepEqual(calls(), [
    {
      type: "call",
      agent: "claude-desktop",
      agentVersion: "1",
      connection: "stdio-1",
      tool: "lomi_workspace_list",
      args: {},
      sentAt: "2026-01-05T09:00:01.000Z",
      answeredAt: "2026-01-05T09:00:02.000Z",
      reply: { status: "answered", isError: false, structuredContent: ok },
    },
  ]);
});

test("calls in flight together share a mark, on any connection; a call alone has none", () => {
  const { rec, calls } = recorder();
  const a = rec.connection("http-1.1");
  const b = rec.connection("http-1.2");
  a.fromClient(call(1, "lomi_workspace_list"));
  a.fromServer(result(1, ok));
  a.fromClient(call(2, "lomi_workspace_list"));
  b.fromClient(call(2, "lomi_panel_list")); // the same id on another connection is another call
  a.fromServer(result(2, ok));
  b.fromClient(call(3, "lomi_connect"));
  b.fromServer(result(2, ok));
  b.fromServer(result(3, ok));
  a.fromClient(call(4, "lomi_workspace_list"));
  a.fromServer(result(4, ok));
  assert.deepEqual(
    calls().map((c) => `${c.connection} ${c.tool} ${c.concurrent ?? "-"}`),
    [
      "http-1.1 lomi_workspace_list -",
      "http-1.1 lomi_workspace_list stdio-1/overlap-2",
      "http-1.2 lomi_panel_list stdio-1/overlap-2",
      "http-1.2 lomi_connect stdio-1/overlap-2",
      "http-1.1 lomi_workspace_list -",
    ],
  );
});

test("a cancelled call, a JSON-RPC error, a batch and the end of the connection are recorded as what the client was told", () => {
  const { rec, calls, records } = recorder();
  const tap = rec.connection("stdio-1");
  tap.fromClient([call(1, "lomi_terminal_run"), call(2, "nope"), call(3, "lomi_operation_get")]);
  tap.fromClient({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user stopped" } });
  tap.fromServer(result(1, ok)); // too late: the client no longer waits for it
  tap.fromServer({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool: nope" } });
  tap.fromServer({ jsonrpc: "2.0", id: 7, method: "ping" }); // the server's own request: not a reply
  tap.crashed({ exitCode: null, signal: "SIGKILL" });
  assert.deepEqual(
    calls().map((c) => [c.tool, c.reply]),
    [
      ["lomi_terminal_run", { status: "lost", reason: "the client cancelled the request (user stopped)" }],
      ["nope", { status: "lost", reason: "JSON-RPC error -32602: Unknown tool: nope" }],
      ["lomi_operation_get", { status: "lost", reason: "the broker exited" }],
    ],
  );
  assert.deepEqual(records.at(-1), {
    type: "fault",
    kind: "broker-crash",
    at: "2026-01-05T09:00:07.000Z",
    detail: { connection: "stdio-1", exitCode: null, signal: "SIGKILL" },
  });
});

test("lines and server-sent events are read across chunk boundaries; what is not JSON is skipped", () => {
  const seen: unknown[] = [];
  const lines = jsonLines((m) => seen.push(m));
  for (const chunk of ['{"a":', '1}\nnot json\n{"b"', ':2}\n{"c":3}']) lines(Buffer.from(chunk));
  assert.deepEqual(seen, [{ a: 1 }, { b: 2 }]);
  const events: unknown[] = [];
  const sse = sseMessages((m) => events.push(m));
  for (const chunk of ['event: message\r\nid: 1\r\ndata: {"x"', ':1}\r\n\r\n: a comment\n\ndata: {"y":\ndata: 2}\n\n']) sse(Buffer.from(chunk));
  assert.deepEqual(events, [{ x: 1 }, { y: 2 }]);
});

test("record's command line: the broker after -- or in --broker-cmd, or --listen with --to; each mistake a configuration error saying what to do", () => {
  const stdio = { form: "stdio", history: `${process.cwd()}/h.jsonl`, live: true, command: "node", args: ["broker.js", "--flag", "a b"] };
  assert.deepEqual(parseRecordArgs(["--history", "h.jsonl", "--live", "--", "node", "broker.js", "--flag", "a b"]), stdio);
  // The same command as one word, with no -- on the line: what a client that takes -- as its own (the MCP Inspector) leaves intact.
  assert.deepEqual(parseRecordArgs(["--history", "h.jsonl", "--broker-cmd", 'node broker.js --flag "a b"', "--live"]), stdio);
  const http = parseRecordArgs(["--history", "h.jsonl", "--listen", "0", "--to", "http://127.0.0.1:3333/mcp"]);
  assert.equal(http.form === "http" && http.to.href, "http://127.0.0.1:3333/mcp");
  const mistakes: Array<[string[], RegExp]> = [
    [["--history", "h.jsonl", "node", "broker.js"], /node comes before --.*or in --broker-cmd "node …"/],
    [["--history", "h.jsonl", "--broker-cmd", "node broker.js", "--", "node", "broker.js"], /name the broker's command once/],
    [["--history", "h.jsonl", "--broker-cmd", "  "], /--broker-cmd names no command/],
    [["--history", "h.jsonl", "--broker-cmd", "node broker.js > log.txt"], /without a shell/],
    [
      ["--history", "h.jsonl", "--listen", "1", "--to", "http://a/mcp", "--broker-cmd", "node"],
      /either a broker command \(after -- or in --broker-cmd\) or --listen/,
    ],
    [["--history", "h.jsonl"], /the broker's command goes after --/],
    [["--", "node"], /--history FILE is required/],
    [["--history", "h.jsonl", "--"], /no broker command after --/],
    [["--history", "h.jsonl", "--listen", "3000"], /--listen and --to go together/],
    [["--history", "h.jsonl", "--listen", "x", "--to", "http://a/mcp"], /--listen takes a port/],
    [["--history", "h.jsonl", "--listen", "1", "--to", "file:///x"], /http\(s\) URL/],
    [["--history", "h.jsonl", "--listen", "1", "--to", "http://a/mcp", "--", "node"], /either a broker command \(after -- or in --broker-cmd\) or --listen/],
  ];
  for (const [argv, message] of mistakes)
    assert.throws(
      () => parseRecordArgs(argv),
      (e: unknown) => e instanceof HarnessError && e.kind === "config" && message.test(e.message),
      argv.join(" "),
    );
});
