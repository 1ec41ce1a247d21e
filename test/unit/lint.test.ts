import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import {
  citableTitles,
  lintCitations,
  lintFeatures,
  lintRuleSources,
  lintSuite,
  lintUncoveredRules,
  nearestSentence,
  stepDistance,
} from "../../harness/authoring/lint.js";
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

  @EVT-01
  Scenario: a project the world does not have
    Given the agent is connected to workspace "ws-beta"
    Then Lomi holds nothing at "notes.md" in project "beta"
`;

test("lint names every authoring mistake at once, file:line each, with the nearest step or rule", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-lint-"));
  writeFileSync(path.join(dir, "draft.feature"), DRAFT);
  const { problems } = await lintFeatures(dir, loadRules());
  const at = (line: number) => problems.filter((p) => p.line === line && p.file.endsWith("draft.feature")).map((p) => p.problem);
  assert.match(at(2).join(), /@EVT-40 is not a rule of docs\/rules\.json; did you mean @EVT-0\d\?/);
  assert.match(at(6).join(), /scenario "no rule at all" cites no rule/);
  assert.match(
    at(11).join(),
    /undefined step "the agent is conected to workspace "ws-alpha""; did you mean "\{agent\} is connected to workspace \{string\}"\?/,
  );
  assert.match(at(16).join(), /project "beta" is not in the world the suite runs on \(docs\/world\.md lists its projects: proj-app, proj-api, proj-web/);
  assert.equal(problems.length, 4, problems.map((p) => `${p.line}: ${p.problem}`).join("\n"));
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

test("a step is ranked by words, a parameter taking the value it refused: the step meant is found", () => {
  assert.equal(stepDistance("the reply is the error IDEMPOTENCY_CONFLICTS", "the reply is the error {code}"), 0);
  assert.equal(stepDistance('agent "b" calls lomi_x', "{agent} calls {tool}"), 0);
  assert.ok(stepDistance('the agent is conected to workspace "ws-alpha"', "{agent} is connected to workspace {string}") < 0.2);
  assert.ok(stepDistance("the clock stops", "{agent} is connected to workspace {string}") >= 3);
});

test("a decision cited by a rule or by another decision must exist where it is cited", () => {
  const rules = loadRules();
  const docs: Record<string, string> = {
    "docs/decisions.md": '- **Order of checks.** text, see "Lost replies".\n- **Lomi\'s clock.** text\n',
    "docs/implementers.md": "## Seeing the arguments (SCH-06)\n",
  };
  const citing = {
    ...rules,
    rules: [
      { ...rules.rules[0]!, decision: 'As docs/decisions.md, "Order of checks" and docs/implementers.md, "Seeing the arguments" say; docs/nowhere.md, "X".' },
    ],
  };
  const problems = lintCitations(citing, (f) => docs[f], `{\n  "id": "${rules.rules[0]!.id}"\n}`, "docs/rules.json").map(
    (p) => `${p.file}:${p.line}: ${p.problem}`,
  );
  assert.deepEqual(problems, [
    `docs/rules.json:2: ${rules.rules[0]!.id}'s decision cites docs/implementers.md, "Seeing the arguments", which docs/implementers.md does not have; did you mean "Seeing the arguments (SCH-06)"?`,
    `docs/rules.json:2: ${rules.rules[0]!.id}'s decision cites docs/nowhere.md, which does not exist`,
    `docs/decisions.md:1: a decision cites docs/decisions.md, "Lost replies", which docs/decisions.md does not have`,
  ]);
  assert.deepEqual([...citableTitles(docs["docs/decisions.md"]!)], ["Order of checks", "Lomi's clock"]);
});

test("a rule no scenario cites is named where it is written", () => {
  const rules = loadRules();
  const [first, second] = rules.rules;
  const problems = lintUncoveredRules(
    rules,
    new Set(rules.rules.slice(1).map((r) => r.id)),
    `{\n  "id": "${first!.id}"\n  "id": "${second!.id}"\n}`,
    "docs/rules.json",
  );
  assert.deepEqual(
    problems.map((p) => [p.line, p.problem]),
    [[2, `${first!.id} has no scenario: tag one with @${first!.id}, or the rule is reported "uncovered"`]],
  );
});
