import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { walkThrough } from "../../examples/agent-walkthrough.js";

type Reply = { status: string; data: Record<string, any> };

test("an agent does the walk-through and runs a command to completion against lomi-broker --simulate on its default real-time clock", async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["bin/lomi-broker.js", "--simulate", "--approve-pairings"], stderr: "pipe" });
  const client = new Client({ name: "agent-walkthrough-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const exchanges = await walkThrough(client);
    const reply = (step: string) => {
      const found = [...exchanges].reverse().find((e) => e.step.startsWith(step)); // the last: a settled read follows a first one
      assert.ok(found, `no exchange for ${step}`);
      assert.equal((found.reply as Reply).status, "ok", JSON.stringify(found.reply));
      return (found.reply as Reply).data;
    };
    const terminal = reply("4. Read the operation until it settles").operation;
    assert.equal(terminal.state, "succeeded");
    assert.match(terminal.result.leaseId, /^lease-/);
    assert.equal(reply("5.").domainRevision, terminal.result.domainRevision);
    const retried = reply("7. Retry");
    assert.equal(retried.duplicate, true, "the retry returned the operation the lost reply was about");
    assert.equal(reply("8. Or find it").operation.operationId, retried.operation.operationId);
    const run = reply("9.").operation;
    assert.equal(run.operationId, retried.operation.operationId);
    assert.deepEqual([run.state, run.effectState, run.result.exitCode], ["succeeded", "complete", 0]);
    assert.match(reply("10.").text, /42 passing/);
    // README shows these exchanges under their steps' headings: the same steps, in the same order.
    const readme = readFileSync("README.md", "utf8").split("### The walk-through, exchange by exchange")[1]!.split("\n## ")[0]!;
    assert.deepEqual(
      [...readme.matchAll(/^#### (.+)$/gm)].map((m) => m[1]),
      exchanges.map((e) => e.step),
      "README's walk-through headings are the script's steps (node --import tsx examples/agent-walkthrough.ts --seed 7)",
    );
  } finally {
    await client.close();
  }
});
