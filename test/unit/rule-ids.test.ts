import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { loadRules } from "../../harness/rules.js";

// Findings, checks and mutants name rules by their IDs as strings: one that is not in docs/rules.json
// would blame, or declare, a rule no report can show, and be dropped silently. Every rule ID written
// in the code that judges or breaks a broker or an agent is a rule of docs/rules.json.

const FOLDERS = ["harness", "steps", "mutants", "examples"];
const RULE_ID = /"([A-Z]{2,8}-\d{2})"/g;

function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesIn(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

/** Each quoted rule ID of a text that is not a rule, with its line; a comment's example is prose, not a rule named. */
function unknownRuleIds(text: string, known: ReadonlySet<string>): string[] {
  return text.split("\n").flatMap((line, at) => {
    const code = line.replace(/\/\/.*$|^\s*\*.*$|\/\*\*.*\*\//g, "");
    return [...code.matchAll(RULE_ID)]
      .map((m) => m[1]!)
      .filter((id) => !known.has(id))
      .map((id) => `${at + 1}: ${id}`);
  });
}

test("every rule ID the judging code, the steps and the mutants name is a rule of docs/rules.json", () => {
  const file = loadRules();
  const known = new Set([...file.rules, ...(file.agent?.rules ?? [])].map((r) => r.id));
  const unknown = FOLDERS.flatMap((folder) => sourcesIn(kitPath(folder))).flatMap((f) =>
    unknownRuleIds(readFileSync(f, "utf8"), known).map((where) => `${path.relative(kitPath("."), f)}:${where}`),
  );
  assert.deepEqual(unknown, []);
  // The check sees one: a finding blaming a rule that does not exist.
  assert.deepEqual(unknownRuleIds('found.push({ message, rules: ["OP-02", "OP-99"] });\n// "EVT-40" in a comment', known), ["1: OP-99"]);
});
