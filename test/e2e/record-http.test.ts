import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { readHistory, type CallRecord } from "../../harness/history/format.js";
import { HistoryFile } from "../../harness/record/history-file.js";
import { recordHttp } from "../../harness/record/http-proxy.js";
import { systemClock } from "../../protocol/ports.js";
import { check, startAnnouncing, stop } from "../support/recorder.js";

const TOKEN = "s3cret-token-never-recorded";

/** The status of a POST with these headers (fetch will not send a Host of our choosing). */
function statusOf(url: string, headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once("error", reject);
    req.end("{}");
  });
}

async function httpClient(name: string, url: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
  return client;
}

/** One agent's session in its own workspace: a read, a connection, an operation and its read, with two of its calls at once. */
async function session(client: Client, workspace: number): Promise<void> {
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })).structuredContent as { data: Record<string, any> };
  const workspaceId = (await call("lomi_workspace_list", {})).data.workspaces.filter((w: { approved: boolean }) => w.approved)[workspace].workspaceId;
  const connected = await call("lomi_connect", { workspaceId });
  const [created] = await Promise.all([
    call("lomi_terminal_create", {
      workspaceId,
      projectId: connected.data.projects[0].projectId,
      cwdRelative: "",
      title: "Tests",
      expectedRevision: connected.data.domainRevision,
      retryEpoch: connected.data.retryEpoch,
      requestKey: "create-1",
    }),
    call("lomi_panel_list", { workspaceId }),
  ]);
  assert.ok(created!.data?.operation, JSON.stringify(created));
  await call("lomi_operation_get", { operationId: created!.data.operation.operationId });
}

test("record --listen --to: two SDK clients at once through the proxy, one history, each session its own connection, no token in it", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-record-http-"));
  const history = path.join(dir, "traffic.jsonl");
  const broker = await startAnnouncing(
    [
      "bin/lomi-broker.js",
      "--simulate",
      "--approve-pairings",
      "--transport",
      "http",
      "--port",
      "0",
      "--token",
      TOKEN,
      "--store",
      path.join(dir, "receipts.sqlite"),
    ],
    /listening on (http:\/\/\S+)/,
  );
  const recorder = await startAnnouncing(
    ["bin/lomi-conformance.js", "record", "--history", history, "--live", "--listen", "0", "--to", broker.url],
    /record: (http:\/\/\S+) →/,
  );
  try {
    const [a, b] = await Promise.all([httpClient("agent-a", recorder.url, TOKEN), httpClient("agent-b", recorder.url, TOKEN)]);
    await Promise.all([session(a, 0), session(b, 1)]);
    await Promise.all([a.close(), b.close()]);

    // What the broker's endpoint refuses, the proxy refuses, and the broker's own refusals pass through.
    assert.equal(await statusOf(recorder.url, { host: "evil.example" }), 403, "a rebound DNS name");
    assert.equal(await statusOf(recorder.url, { origin: "http://evil.example" }), 403, "a web page");
    await assert.rejects(httpClient("agent-x", recorder.url, undefined), /401|Unauthorized/);
  } finally {
    await stop(recorder.child);
    await stop(broker.child);
  }

  const calls = readHistory(history).records.filter((r): r is CallRecord => r.type === "call");
  for (const agent of ["agent-a", "agent-b"]) {
    const own = calls.filter((c) => c.agent === agent);
    assert.deepEqual(
      own.map((c) => c.tool).sort(),
      ["lomi_connect", "lomi_operation_get", "lomi_panel_list", "lomi_terminal_create", "lomi_workspace_list"],
      agent,
    );
    assert.equal(new Set(own.map((c) => c.connection)).size, 1, `${agent}: one session, one connection`);
    assert.ok(own.every((c) => c.reply.status === "answered"));
  }
  assert.equal(new Set(calls.map((c) => c.connection)).size, 2);
  assert.ok(
    calls.some((c) => c.agent === "agent-a" && c.concurrent !== undefined && calls.some((d) => d.agent === "agent-b" && d.concurrent === c.concurrent)),
    "calls of both sessions in flight together share a mark",
  );
  assert.ok(!readFileSync(history, "utf8").includes(TOKEN), "the bearer token is not in the history");
  assert.doesNotMatch(recorder.stderr(), /VIOLATION/);
  const judged = check(history);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
});

test("record --listen --to reads replies a broker streams as server-sent events, as it reads JSON ones", async () => {
  // An MCP server of the SDK's own that answers every POST with an event stream (its default).
  const server = new McpServer({ name: "streaming-broker", version: "1.0.0" });
  server.registerTool("lomi_workspace_list", { inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "{}" }],
    structuredContent: { controlApiVersion: "1.0", status: "ok", data: { workspaces: [] } },
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const upstream = http.createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-record-sse-"));
  const history = new HistoryFile(path.join(dir, "traffic.jsonl"), "test");
  const proxy = await recordHttp({
    history,
    port: 0,
    to: new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`),
    live: false,
    clock: systemClock,
    print: () => undefined,
  });
  try {
    const client = await httpClient("agent-s", proxy.url, undefined);
    const reply = await client.callTool({ name: "lomi_workspace_list", arguments: {} });
    await client.close();
    const [call] = readHistory(history.file).records.filter((r): r is CallRecord => r.type === "call");
    assert.deepEqual(call!.reply, { status: "answered", content: [{ type: "text", text: "{}" }], structuredContent: reply.structuredContent });
    assert.equal(call!.agent, "agent-s");
  } finally {
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  }
});
