import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

type Reply = { status: string; code?: string; data: Record<string, any> };

const advance = (url: string, duration: string) =>
  spawnSync(process.execPath, ["bin/lomi-sim.js", "clock", "advance", duration, "--url", url], { encoding: "utf8" });

test("lomi-broker --simulate --clock virtual stands still until lomi-sim clock advance moves it: commands finish, epochs expire", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["bin/lomi-broker.js", "--simulate", "--approve-pairings", "--clock", "virtual", "--control-port", "0"],
    stderr: "pipe",
  });
  let stderr = "";
  const controlUrl = new Promise<string>((resolve) =>
    transport.stderr!.on("data", (c: Buffer) => {
      stderr += c.toString();
      const found = /control API on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (found) resolve(found[1]!);
    }),
  );
  const client = new Client({ name: "clock-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent as Reply;
    const url = await controlUrl;
    const { data: connected } = await call("lomi_connect", { workspaceId: "ws-alpha" });
    const identity = { workspaceId: "ws-alpha", retryEpoch: connected.retryEpoch };
    const created = await call("lomi_terminal_create", {
      ...identity,
      cwdRelative: "",
      title: "Tests",
      expectedRevision: connected.domainRevision,
      requestKey: "t1",
    });
    const { terminalSessionId } = created.data.operation.result;
    const run = await call("lomi_terminal_run", { ...identity, terminalSessionId, command: "npm test", requestKey: "r1" });
    const state = async () => (await call("lomi_operation_get", { operationId: run.data.operation.operationId })).data.operation.state;
    assert.equal(await state(), "running");
    assert.equal(await state(), "running", "the virtual clock does not move by itself");

    const moved = advance(url, "2s");
    assert.equal(moved.status, 0, moved.stderr);
    assert.equal(moved.stdout.trim(), "Lomi's clock is now 2026-01-05T09:00:02.000Z (advanced 2s)");
    assert.equal(await state(), "succeeded");

    assert.equal(advance(url, "24h").status, 0);
    const late = await call("lomi_terminal_run", { ...identity, terminalSessionId, command: "npm test", requestKey: "r2" });
    assert.equal(late.code, "RETRY_EPOCH_EXPIRED", JSON.stringify(late));

    const bad = advance(url, "a day");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /not a duration/);
  } finally {
    await client.close();
  }
});

test("lomi-sim clock advance names the URL where no simulated Lomi answers", () => {
  const r = advance("http://127.0.0.1:9", "1h");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no simulated Lomi answers at http:\/\/127\.0\.0\.1:9/);
});

test("lomi-broker refuses a clock it does not have", () => {
  const r = spawnSync(process.execPath, ["bin/lomi-broker.js", "--simulate", "--clock", "sundial"], { encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--clock must be real or virtual, not sundial/);
});
