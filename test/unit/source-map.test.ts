import assert from "node:assert/strict";
import { test } from "node:test";
import { loadRules } from "../../harness/rules.js";
import { coverageText, sourceCoverage } from "../../harness/authoring/source-coverage.js";
import { mapSource, sourceMapProblems, sourceUnits } from "../../harness/authoring/source-map.js";

const SOURCE = `Heading

First sentence. Second one: with a colon.

{
  "example": "left out"
}

Field\tMeaning
leaseId\tTemporary authority. It expires.
`;

test("the source splits into its sentences and table rows, headings, header rows and example JSON left out", () => {
  assert.deepEqual(sourceUnits(SOURCE), ["First sentence.", "Second one: with a colon.", "leaseId\tTemporary authority. It expires."]);
});

test("each sentence is quoted by a rule, covered by rules the map names, informative, or uncovered; a wrong map entry is a problem", () => {
  const rules = loadRules();
  const [a, b] = rules.rules;
  const withSources = {
    ...rules,
    rules: [
      { ...a!, source: "Temporary authority." },
      { ...b!, source: "First sentence." },
    ],
  };
  const units = sourceUnits(SOURCE);
  const map = {
    covered: [{ sentence: "Second one: with a colon.", rules: [a!.id, "NOPE-01"], why: "because" }],
    informative: [{ sentence: "Not in the source.", reason: "r" }],
  };
  assert.deepEqual(
    mapSource(units, withSources, map).map((r) => [r.how, r.rules]),
    [
      ["quoted", [b!.id]],
      ["covered", [a!.id, "NOPE-01"]],
      ["quoted", [a!.id]],
    ],
  );
  const problems = sourceMapProblems(units, withSources, map).map((p) => `${p.in}: ${p.problem}`);
  assert.deepEqual(problems, [
    'map: "Not in the source." is not a sentence of the source',
    'map: NOPE-01, named for "Second one: with a colon.", is not a rule',
  ]);
  const bare = sourceMapProblems(units, withSources, { covered: [], informative: [] });
  assert.deepEqual(
    bare.map((p) => p.sentence),
    ["Second one: with a colon."],
  );
});

test("coverage shows every sentence of the kit's source with its rules, scenario counts and a run's verdicts, none uncovered", () => {
  const rules = loadRules();
  const failing = rules.rules[0]!.id;
  const coverage = sourceCoverage({
    file: "x/conformance.json",
    run: {
      startedAt: "2026-12-04T00:00:00Z",
      broker: { adapter: "test" },
      rules: rules.rules.map((r) => ({ id: r.id, verdict: r.id === failing ? "fail" : "pass" })),
    },
  });
  assert.equal(coverage.rows.filter((r) => r.how === "unmapped").length, 0);
  assert.ok(coverage.rows.every((r) => r.how === "informative" || r.judged.every((j) => j.scenarios > 0 && j.verdict !== undefined)));
  const text = coverageText(coverage);
  assert.match(
    text,
    /^\d+ sentences of docs\/source\/operations-revisions-retries\.txt: \d+ quoted by a rule, \d+ covered by rules that quote another, \d+ informative, 0 uncovered; [1-9]\d* with a failing rule/,
  );
  assert.match(text, new RegExp(`${failing} \\(MUST, \\d+ scenarios?, fail\\)`));
});
