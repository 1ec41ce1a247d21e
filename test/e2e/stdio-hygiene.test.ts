import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";

const MALFORMED = [
  "{",
  "not json",
  '{"jsonrpc":"2.0","id":1,"method":"ping"',
  "}{",
  "\u0000\u0001",
  "nul",
  "tru",
  '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
  "'single quotes'",
  "{jsonrpc:2.0}",
  "[]",
  "[1,2]",
  "{}",
  "null",
  "42",
  '"a string"',
  "true",
  '{"jsonrpc":"1.0","id":1,"method":"ping"}',
  '{"id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{},"method":"ping"}',
  '{"jsonrpc":"2.0","id":[1],"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"2.0","id":true,"method":"ping"}',
  '{"jsonrpc":2,"id":1,"method":"ping"}',
  '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
  '{"jsonrpc":"2.0","method":null}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}',
  '{"jsonrpc":"2.0","id":1,"error":"oops"}',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1.5e400,"method":"ping"}',
];

function startBroker(store: string) {
  const child = spawn(process.execPath, ["bin/lomi-broker.js", "--simulate", "--approve-pairings", "--store", store], { stdio: ["pipe", "pipe", "pipe"] });
  const replies: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    replies.push(JSON.parse(line) as Record<string, unknown>);
    waiters.splice(0).forEach((w) => w());
  });
  const send = (line: string) => child.stdin.write(`${line}\n`);
  /** Waits until `n` replies in all have arrived; the test's own timeout bounds the wait. */
  const replyCount = async (n: number) => {
    while (replies.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return replies;
  };
  return { child, send, replyCount, replies };
}

test("over stdio every malformed line is answered -32700 or -32600 with id null, calls wait for initialize, a huge line is answered and skipped", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-stdio-"));
  const store = path.join(dir, "receipts.sqlite");
  const broker = startBroker(store);
  try {
    for (const line of MALFORMED) broker.send(line);
    const refused = (await broker.replyCount(MALFORMED.length)).slice(0, MALFORMED.length);
    for (const [i, reply] of refused.entries()) {
      assert.equal(reply.id, null, `line ${JSON.stringify(MALFORMED[i])}`);
      assert.ok([-32700, -32600].includes((reply.error as { code: number }).code), `line ${JSON.stringify(MALFORMED[i])}: ${JSON.stringify(reply)}`);
    }
    broker.send(JSON.stringify({ jsonrpc: "2.0", id: "early", method: "tools/call", params: { name: "lomi_workspace_list", arguments: {} } }));
    const [early] = (await broker.replyCount(MALFORMED.length + 1)).slice(-1);
    assert.deepEqual(early, { jsonrpc: "2.0", id: "early", error: { code: -32000, message: "Bad Request: Server not initialized" } });
    broker.send(`{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"${"x".repeat(5 * 1024 * 1024)}"}}`);
    const [huge] = (await broker.replyCount(MALFORMED.length + 2)).slice(-1);
    assert.equal((huge!.error as { code: number }).code, -32600);
    assert.equal(huge!.id, null);
    broker.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
      }),
    );
    broker.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    broker.send(JSON.stringify({ jsonrpc: "2.0", id: "list", method: "tools/call", params: { name: "lomi_workspace_list", arguments: {} } }));
    const [init, list] = (await broker.replyCount(MALFORMED.length + 4)).slice(-2);
    assert.equal(init!.id, "init");
    assert.equal(list!.id, "list");
    assert.equal((list!.result as { structuredContent: { status: string } }).structuredContent.status, "ok");
  } finally {
    broker.child.kill("SIGTERM");
    const [code] = (await once(broker.child, "exit")) as [number | null];
    assert.equal(code, 0, "SIGTERM closes the broker cleanly");
  }
  assert.equal(existsSync(`${store}-wal`), false, "the store was closed (its WAL checkpointed away)");
});

test("a SIGTERM the moment the ready line appears still closes the store", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-sigterm-"));
  const store = path.join(dir, "receipts.sqlite");
  const child = spawn(process.execPath, ["bin/lomi-broker.js", "--simulate", "--store", store, "--transport", "http", "--port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let seen = "";
  child.stderr.on("data", (c: Buffer) => {
    seen += c.toString();
    if (seen.includes("listening on")) child.kill("SIGTERM");
  });
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  assert.deepEqual([code, signal], [0, null], seen);
  assert.equal(existsSync(`${store}-wal`), false);
});
