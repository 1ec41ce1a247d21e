import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { lintAgentRules } from "../../harness/authoring/lint.js";
import { coverageText, sourceCoverage } from "../../harness/authoring/source-coverage.js";
import { loadSourceMap, sourceMapProblems, sourceUnits } from "../../harness/authoring/source-map.js";
import { loadRules, RULES_FILE } from "../../harness/rules.js";

const rules = loadRules();
const source = readFileSync("docs/source/operations-revisions-retries.txt", "utf8");

test("coverage places every agent rule's sentence for the agent, beside the broker's placement of it, and says how many sentences address the agent", () => {
  const coverage = sourceCoverage(undefined, {});
  for (const r of rules.agent!.rules) {
    const row = coverage.rows.find((x) => x.sentence.includes(r.source) || r.source.includes(x.sentence));
    assert.ok(row, `${r.id}'s sentence is a sentence of the source`);
    assert.ok(row.agent?.how === "quoted" && row.agent.rules.includes(r.id), `${r.id} quotes its sentence for the agent`);
    assert.notEqual(row.how, "unmapped", `${r.id}'s sentence stays placed for the broker`);
    assert.ok(
      row.rules.every((id) => !id.startsWith("AGENT-")),
      "an agent rule never stands among the broker's",
    );
  }
  assert.ok(
    coverage.rows.every((r) => r.agent === undefined || r.agent.how === "quoted" || r.agent.why),
    "a sentence the agent rules cover, or do not judge, says why",
  );
  assert.match(coverageText(coverage), /; 35 address the agent: 14 quoted by an agent rule, 11 covered by agent rules, 10 not judged from traffic\n/);
  assert.match(
    coverageText(coverage),
    /"Never generate a new key merely to bypass uncertainty or a denial\."\n {4}informative: .*\n {4}agent: quoted by AGENT-11 \(MUST, from traffic\)/,
  );
});

test("the map's agent section is checked: a sentence not in the source, one an agent rule quotes already, a rule that is not an agent rule", () => {
  const map = loadSourceMap();
  const bad = {
    ...map,
    agent: [
      { sentence: "Agents are polite.", rules: [], why: "x" },
      { sentence: "Continue with its cursor even if a page is empty.", rules: ["AGENT-06"], why: "x" },
      { sentence: "Keep the terminal session and lease from the confirmed result.", rules: ["OP-05"], why: "x" },
    ],
  };
  assert.deepEqual(
    sourceMapProblems(sourceUnits(source), rules, bad).map((p) => p.problem),
    [
      '"Agents are polite." (agent) is not a sentence of the source',
      '"Continue with its cursor even if a page is empty." is quoted by an agent rule already: drop its agent entry',
      'OP-05, named for "Keep the terminal session and lease from the confirmed result." (agent), is not an agent rule',
    ],
  );
  assert.deepEqual(sourceMapProblems(sourceUnits(source), rules, map), []);
});

test("lint holds the agent rules to their sentences and their IDs, apart from the broker's (no scenario asked of them)", () => {
  const text = readFileSync(RULES_FILE, "utf8");
  const first = rules.agent!.rules[0]!;
  const twisted = { ...rules, agent: { ...rules.agent!, rules: [{ ...first, source: "Agents must be nice." }, first] } };
  assert.deepEqual(
    lintAgentRules(twisted, source, text, "docs/rules.json").map((p) => p.problem.replace(/; the nearest.*/, "")),
    [`${first.id} is written twice`, `${first.id}'s source is not in ${rules.source} as written: "Agents must be nice."`],
  );
  assert.deepEqual(lintAgentRules(rules, source, text, "docs/rules.json"), []);
});
