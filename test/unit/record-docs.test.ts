import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { commandHelp } from "../../harness/commands/help.js";
import { RECORD } from "../../harness/commands/record.js";
import { parseRecordArgs } from "../support/record-args.js";
import { splitCommand } from "../../harness/text/command-line.js";

const section = () => {
  const doc = readFileSync(kitPath("docs/implementers.md"), "utf8");
  const start = doc.indexOf("## Judging your real traffic");
  assert.notEqual(start, -1, "docs/implementers.md has the section");
  return doc.slice(start, doc.indexOf("\n## ", start + 1));
};

test("the client configurations docs/implementers.md shows are valid JSON whose recorder command lines parse", () => {
  const blocks = [...section().matchAll(/```(json|sh)\n([\s\S]*?)```/g)].map((m) => ({ kind: m[1]!, text: m[2]! }));
  const stdio = JSON.parse(blocks.find((b) => b.kind === "json" && b.text.includes("mcpServers"))!.text);
  const { command, args } = stdio.mcpServers.lomi as { command: string; args: string[] };
  assert.deepEqual([command, ...args.slice(0, 2)], ["npx", "lomi-conformance", "record"]);
  const request = parseRecordArgs(args.slice(2));
  assert.equal(request.form, "stdio");
  assert.equal(request.form === "stdio" && request.live, true);

  // The MCP Inspector's line: the recorder's part (between its name and the Inspector's --) has no -- for the Inspector to take.
  const inspector = splitCommand(blocks.find((b) => b.kind === "sh" && b.text.includes("@modelcontextprotocol/inspector --cli"))!.text.trim());
  const recorder = inspector.slice(inspector.indexOf("record") + 1, inspector.indexOf("--"));
  assert.ok(!recorder.includes("--"));
  const inspected = parseRecordArgs(recorder);
  assert.deepEqual(inspected.form === "stdio" && [inspected.command, ...inspected.args], ["/home/me/broker/bin/your-broker", "--stdio"]);
  assert.deepEqual(
    inspector.slice(inspector.indexOf("--") + 1, inspector.indexOf("--") + 3),
    ["--method", "tools/call"],
    "the Inspector's own options after its --",
  );

  const proxyLine = blocks
    .find((b) => b.kind === "sh" && b.text.includes("--listen"))!
    .text.trim()
    .split(/\s+/);
  const proxy = parseRecordArgs(proxyLine.slice(3));
  assert.equal(proxy.form === "http" && proxy.port, 4000);
  const http = JSON.parse(blocks.find((b) => b.kind === "json" && b.text.includes('"http"'))!.text);
  assert.equal(http.servers.lomi.url, `http://127.0.0.1:${4000}/mcp`);
});

test("record --help names both forms and every option", () => {
  for (const text of ["-- CMD [ARGS…]", '--broker-cmd "CMD [ARGS…]"', "--listen PORT --to URL", "--history FILE", "--live", "-h, --help"])
    assert.ok(commandHelp(RECORD).includes(text), text);
});
