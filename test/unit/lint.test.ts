import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { lintFeatures, lintRuleSources, lintSuite, nearestSentence } from "../../harness/lint.js";
import { loadRules } from "../../harness/rules.js";

// The spec author's mistakes the issue names, each reported with file and line before any broker runs.
const DRAFT = `Feature: a draft
  @EVT-40
  Scenario: an unknown rule
    Given the agent is connected to workspace "ws-alpha"

  Scenario: no rule at all
    Given the agent is connected to workspace "ws-alpha"

  @EVT-01
  Scenario: a misspelt step
    Given the agent is conected to workspace "ws-alpha"
`;

test("lint names every authoring mistake at once, file:line each, with the nearest step or rule", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-lint-"));
  writeFileSync(path.join(dir, "draft.feature"), DRAFT);
  const problems = await lintFeatures(dir, loadRules());
  const at = (line: number) => problems.filter((p) => p.line === line && p.file.endsWith("draft.feature")).map((p) => p.problem);
  assert.match(at(2).join(), /@EVT-40 is not a rule of docs\/rules\.json; did you mean @EVT-0\d\?/);
  assert.match(at(6).join(), /scenario "no rule at all" cites no rule/);
  assert.match(at(11).join(), /undefined step "the agent is conected to workspace "ws-alpha""; did you mean "\{agent\} is connected to workspace \{string\}"\?/);
  assert.equal(problems.length, 3, problems.map((p) => `${p.line}: ${p.problem}`).join("\n"));
});

test("a rule source that is not in the source document is named with the nearest real sentence", () => {
  const rules = loadRules();
  const source = "Unknown fields are rejected. Retry with the same requestKey after a lost reply.";
  const made = { ...rules, rules: [{ ...rules.rules[0]!, source: "Unknown fields are refused." }] };
  const [problem] = lintRuleSources(made, source, `{\n  "id": "${rules.rules[0]!.id}"\n}`, "docs/rules.json");
  assert.equal(problem?.line, 2);
  assert.match(problem!.problem, /the nearest sentence there is "Unknown fields are rejected\."/);
  assert.equal(nearestSentence("Retry with the same key after a lost reply", source), "Retry with the same requestKey after a lost reply.");
});

test("the kit's own suite lints clean", async () => {
  assert.deepEqual(await lintSuite(), []);
});
