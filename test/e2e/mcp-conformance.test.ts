import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";

// The official MCP conformance suite (a pinned devDependency, run from node_modules: nothing downloads)
// against lomi-broker --simulate over Streamable HTTP. Only its generic server scenarios apply to a
// server that is not the suite's own fixture (STACK.md).
const SCENARIOS = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams"];
const suite = path.join(path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")), "dist/index.js");

test("the official MCP conformance suite's generic server scenarios pass against lomi-broker --simulate over HTTP", async () => {
  const broker = spawn(process.execPath, ["bin/lomi-broker.js", "--simulate", "--approve-pairings", "--transport", "http", "--port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = "";
      broker.stderr.on("data", (c: Buffer) => {
        seen += c.toString();
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
        if (found) resolve(found[1]!);
      });
      broker.once("exit", (code) => reject(new Error(`lomi-broker exited ${code}: ${seen}`)));
    });
    for (const scenario of SCENARIOS) {
      // spawnSync is fine here: the broker is another process.
      const run = spawnSync(process.execPath, [suite, "server", "--url", url, "--scenario", scenario], { encoding: "utf8" });
      const output = `${run.stdout}${run.stderr}`;
      assert.equal(run.status, 0, `${scenario}:\n${output}`);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      assert.ok(summary, `${scenario} printed no summary:\n${output}`);
      assert.equal(summary[3], "0", `${scenario}:\n${output}`);
      assert.equal(summary[1], summary[2], `${scenario}:\n${output}`);
      assert.ok(Number(summary[2]) >= 1, `${scenario} ran no check`);
    }
  } finally {
    broker.kill("SIGKILL");
    if (broker.exitCode === null && broker.signalCode === null) await once(broker, "exit");
  }
});
