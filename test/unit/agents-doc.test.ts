import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { MUTANT_AGENTS } from "../../examples/agents/mutant-agents.js";
import { kitPath } from "../../protocol/kit-root.js";
import { parseRecordArgs } from "../support/record-args.js";
import { parseFaultSpec } from "../../harness/record/fault-plan.js";
import { loadRules } from "../../harness/rules.js";

const doc = readFileSync(kitPath("docs/agents.md"), "utf8");

test("docs/agents.md's client configuration is valid JSON whose recorder command line parses, faults included", () => {
  const [, json] = /```json\n([\s\S]*?)```/.exec(doc)!;
  const { command, args } = (JSON.parse(json!) as { mcpServers: { lomi: { command: string; args: string[] } } }).mcpServers.lomi;
  assert.deepEqual([command, ...args.slice(0, 2)], ["npx", "lomi-conformance", "record"]);
  const request = parseRecordArgs(args.slice(2));
  assert.equal(request.form === "stdio" && request.faults?.spec.items.map((i) => i.kind).join(","), "lose-reply,restart");
});

test("docs/agents.md explains every agent rule with the mutant agent that breaks it, and its example specs read", () => {
  for (const r of loadRules().agent!.rules) assert.match(doc, new RegExp(`\\*\\*${r.id}\\*\\* \\(${r.level}\\)`), r.id);
  for (const m of MUTANT_AGENTS) assert.ok(doc.includes(`\`${m.name}\``), m.name);
  for (const [, spec] of doc.matchAll(/`((?:lose-reply|restart|hold):[^`]+)`/g)) assert.doesNotThrow(() => parseFaultSpec(spec!), spec);
});
