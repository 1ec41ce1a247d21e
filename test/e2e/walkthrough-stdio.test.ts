import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

type Sc = { status: string; data: Record<string, any> };

test("the source's walk-through works verbatim over stdio against lomi-broker --simulate --approve-pairings", async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["bin/lomi-broker.js", "--simulate", "--approve-pairings"], stderr: "pipe" });
  const client = new Client({ name: "walkthrough", version: "1.0.0" });
  await client.connect(transport);
  try {
    await client.listTools(); // the SDK client then checks every reply against the published output schemas
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      return r.structuredContent as Sc;
    };
    const list = await call("lomi_workspace_list", {});
    const workspaceId = list.data.workspaces.find((w: { approved: boolean }) => w.approved).workspaceId;
    const connected = await call("lomi_connect", { workspaceId });
    const created = await call("lomi_terminal_create", {
      workspaceId,
      cwdRelative: "",
      title: "Tests",
      expectedRevision: connected.data.domainRevision,
      retryEpoch: connected.data.retryEpoch,
      requestKey: "create-test-terminal-1",
    });
    let op = created.data.operation;
    for (let i = 0; i < 50 && !["succeeded", "failed", "cancelled", "outcome_unknown"].includes(op.state); i++) {
      op = (await call("lomi_operation_get", { operationId: op.operationId })).data.operation;
    }
    op = (await call("lomi_operation_get", { operationId: created.data.operation.operationId })).data.operation;
    assert.equal(op.state, "succeeded");
    assert.equal(op.effectState, "complete");
    assert.match(op.result.terminalSessionId, /^term-/);
    assert.match(op.result.leaseId, /^lease-/);
    const panels = await call("lomi_panel_list", { workspaceId });
    assert.equal(panels.data.domainRevision, op.result.domainRevision, "refreshed layout shows the new revision");
    assert.equal(BigInt(panels.data.domainRevision), BigInt(connected.data.domainRevision) + 1n);
  } finally {
    await client.close();
  }
});
