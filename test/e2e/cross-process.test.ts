import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** Starts a bin and waits for the line that says where it listens. */
async function startAndWaitFor(args: string[], stream: "stdout" | "stderr", pattern: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let seen = "";
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child[stream]!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const m = seen.match(pattern);
      if (m) resolve(m);
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited ${code}: ${seen}`)));
  });
  return { child, match };
}

test("lomi-sim serve and lomi-broker --transport http work across processes on 127.0.0.1", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-xproc-"));
  const sim = await startAndWaitFor(["bin/lomi-sim.js", "serve", "--port", "0", "--approve-pairings"], "stdout", /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const broker = await startAndWaitFor(
    ["bin/lomi-broker.js", "--native-url", sim.match[1]!, "--store", path.join(dir, "r.sqlite"), "--transport", "http", "--port", "0", "--seed", "5"],
    "stderr",
    /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
  );
  const client = new Client({ name: "xproc", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(broker.match[1]!)));
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })).structuredContent as { status: string; data: any };
    const c = await call("lomi_connect", { workspaceId: "ws-alpha" });
    assert.equal(c.status, "ok");
    const args = {
      workspaceId: "ws-alpha",
      cwdRelative: "",
      title: "T",
      expectedRevision: c.data.domainRevision,
      retryEpoch: c.data.retryEpoch,
      requestKey: "k1",
    };
    const first = await call("lomi_terminal_create", args);
    const again = await call("lomi_terminal_create", args);
    assert.equal(again.data.operation.operationId, first.data.operation.operationId);
    assert.equal(again.data.duplicate, true);
    const ledger = (await (await fetch(`${sim.match[1]}/control/v1/ledger`)).json()) as { entries: Array<{ kind: string }> };
    assert.equal(ledger.entries.filter((e) => e.kind === "dispatch").length, 1);
  } finally {
    await client.close();
    broker.child.kill("SIGTERM");
    sim.child.kill("SIGTERM");
    await Promise.all([once(broker.child, "exit"), once(sim.child, "exit")]);
    rmSync(dir, { recursive: true, force: true });
  }
});
