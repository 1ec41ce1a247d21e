import assert from "node:assert/strict";
import { test } from "node:test";
import { ALL_MUTANTS, MUTANTS } from "../../mutants/index.js";
import { UNTYPED_CODE_MUTANTS, untypedReply } from "../../mutants/untyped-codes.js";
import { ERROR_CODES } from "../../protocol/errors.js";
import { buildToolResult, ok } from "../../protocol/envelope.js";
import { loadTeeth, ruleKillers, teethExitCode, teethMarkdown, teethText, thinRules, type TeethMatrix, type TeethRun } from "../../harness/authoring/teeth.js";
import { loadRules } from "../../harness/rules.js";

const matrix: TeethMatrix = {
  tags: "@X",
  runs: [
    { broker: "reference broker", exitCode: 0, fails: [], durationMs: 1 },
    {
      broker: "m-one",
      exitCode: 1,
      fails: ["IDEM-01", "OP-02"],
      durationMs: 1,
      declares: ["IDEM-01", "OP-02"],
      killedBy: [{ scenario: "a retry", at: "features/x.feature:3", rules: ["IDEM-01", "OP-02"] }],
    },
    { broker: "m-two", exitCode: 2, fails: [], durationMs: 1, notRun: "it crashed" },
  ],
  rules: [
    {
      id: "IDEM-01",
      level: "MUST",
      brokenBy: ["m-one"],
      killedBy: [{ scenario: "a retry", at: "features/x.feature:3", mutants: ["m-one"] }],
      reason: undefined,
    },
    { id: "DUR-08", level: "MUST", brokenBy: [], killedBy: [], reason: "shown by a kill test" },
    { id: "EVT-02", level: "MUST", brokenBy: [], killedBy: [], reason: undefined },
    { id: "ENV-03", level: "SHOULD", brokenBy: [], killedBy: [], reason: undefined },
  ],
  notJudged: [{ id: "DUR-09", level: "MUST", why: "needs a process", reason: undefined }],
};

test("teeth names each rule's mutants, the rules none breaks with their reason, the MUST rules with neither, and the mutants that did not run", () => {
  const text = teethText(matrix);
  assert.match(text, /IDEM-01 +m-one\n +features\/x\.feature:3 a retry ← m-one\n/, "each rule with the scenarios that kill its mutants");
  assert.match(text, /DUR-08 +MUST: shown by a kill test/);
  assert.match(text, /EVT-02 +MUST: NO TEETH, and no reason in docs\/teeth\.json/);
  assert.doesNotMatch(text, /ENV-03 +SHOULD:/);
  assert.match(text, /Mutants whose run did not finish \(the matrix lacks them\): m-two: it crashed/);
  assert.match(text, /DUR-09 +MUST \(needs a process\): NO TEETH SHOWN, and no reason in docs\/teeth\.json/);
  assert.match(text, /teeth: 2 MUST rule\(s\) with neither a mutant/);
  assert.equal(teethExitCode(matrix), 2, "a mutant that did not run leaves the matrix incomplete");
  const finished = { ...matrix, runs: matrix.runs.slice(0, 2) };
  assert.equal(teethExitCode(finished), 1, "MUST rules with neither a mutant nor a reason");
  assert.equal(teethExitCode({ ...finished, rules: matrix.rules.filter((r) => r.id !== "EVT-02"), notJudged: [] }), 0);
  assert.match(text, /m-one \(declares IDEM-01, OP-02\): precise\n +features\/x\.feature:3 a retry → IDEM-01, OP-02/, "the scenarios that kill each mutant");
  const md = teethMarkdown(matrix);
  assert.match(md, /\| mutant \| IDEM-01 \|/);
  assert.match(md, /\| m-one \| ✗ \|/);
});

test("a mutant that fails a rule it does not declare, or none it does, fails teeth: the kit blamed imprecisely", () => {
  const judged = (fails: string[]): TeethMatrix => ({
    ...matrix,
    runs: [matrix.runs[0]!, { broker: "m-one", exitCode: 1, fails, durationMs: 1, declares: ["IDEM-01"] }],
    rules: [],
    notJudged: [],
    declaredOnly: true,
  });
  assert.equal(teethExitCode(judged(["IDEM-01"])), 0);
  assert.equal(teethExitCode(judged(["IDEM-01", "REV-01"])), 1, "REV-01 is blamed on a defect that does not break it");
  assert.equal(teethExitCode(judged([])), 1, "no declared rule failed: no teeth for this mutant");
  assert.match(
    teethText(judged(["IDEM-01", "REV-01"])),
    /m-one \(declares IDEM-01\): blames rules it does not break: REV-01[\s\S]*Precision: 0 of 1 mutants fail only rules they declare/,
  );
});

test("every shipped mutant declares a rule it breaks: one that declares none could never be held to failing it", () => {
  assert.deepEqual(
    ALL_MUTANTS.filter((m) => m.breaks.length === 0).map((m) => m.name),
    [],
  );
});

test("an untyped-<code> mutant answers its code as a generic failure in replies and receipts, and leaves other codes alone", () => {
  assert.equal(UNTYPED_CODE_MUTANTS.length, ERROR_CODES.length - 2, "every code but INTERNAL and REPLAY_REFUSED");
  assert.equal(new Set(ALL_MUTANTS.map((m) => m.name)).size, MUTANTS.length + UNTYPED_CODE_MUTANTS.length, "names are unique");
  const replies = [
    buildToolResult({ controlApiVersion: "1.0", status: "error", code: "REVISION_CONFLICT", message: "stale" }),
    buildToolResult(ok({ operation: { state: "failed", error: { code: "REVISION_CONFLICT", message: "stale" } } })),
    buildToolResult({ controlApiVersion: "1.0", status: "error", code: "NOT_FOUND", message: "none" }),
  ];
  const seen = replies.map((r) => untypedReply(r, "REVISION_CONFLICT"));
  assert.deepEqual(
    seen.map((r) => JSON.stringify(r.structuredContent)),
    [
      JSON.stringify({ controlApiVersion: "1.0", status: "error", code: "NATIVE_FAILURE", message: "stale" }),
      JSON.stringify(ok({ operation: { state: "failed", error: { code: "NATIVE_FAILURE", message: "stale" } } })),
      JSON.stringify(replies[2]!.structuredContent),
    ],
  );
  assert.equal((seen[0]!.content[0] as { text: string }).text, JSON.stringify(seen[0]!.structuredContent), "the text block mirrors the rewritten envelope");
});

test("docs/teeth.json gives reasons for known MUST rules only", () => {
  const rules = new Map(loadRules().rules.map((r) => [r.id, r.level]));
  for (const id of Object.keys(loadTeeth().unbroken)) assert.equal(rules.get(id), "MUST", `${id} in docs/teeth.json is not a MUST rule`);
});

test("each rule shows the scenarios that fail it in its mutants' runs, and a rule one scenario alone fails is thin", () => {
  const run = (broker: string, killedBy: NonNullable<TeethRun["killedBy"]>): TeethRun => ({
    broker,
    exitCode: 1,
    fails: [...new Set(killedBy.flatMap((k) => k.rules))],
    durationMs: 1,
    killedBy,
  });
  const runs = [
    run("m-one", [
      { scenario: "a retry", at: "features/x.feature:30", rules: ["IDEM-01", "OP-02"] },
      { scenario: "a lost reply", at: "features/x.feature:4", rules: ["IDEM-01"] },
    ]),
    run("m-two", [{ scenario: "a retry", at: "features/x.feature:30", rules: ["IDEM-01"] }]),
    run("m-three", [{ scenario: "a cancel", at: "features/c.feature:9", rules: ["CANCEL-03"] }]),
  ];
  assert.deepEqual(
    ruleKillers("IDEM-01", runs),
    [
      { scenario: "a lost reply", at: "features/x.feature:4", mutants: ["m-one"] },
      { scenario: "a retry", at: "features/x.feature:30", mutants: ["m-one", "m-two"] },
    ],
    "by file and line (30 after 4), each scenario once with every mutant it fails the rule in",
  );
  assert.deepEqual(ruleKillers("OP-02", runs), [{ scenario: "a retry", at: "features/x.feature:30", mutants: ["m-one"] }]);
  assert.deepEqual(ruleKillers("EVT-02", runs), []);
  const rule = (id: string, brokenBy: string[]) => ({ id, level: "MUST" as const, brokenBy, killedBy: ruleKillers(id, runs), reason: undefined });
  const m: TeethMatrix = {
    tags: undefined,
    runs: [{ broker: "reference broker", exitCode: 0, fails: [], durationMs: 1 }, ...runs],
    rules: [rule("IDEM-01", ["m-one", "m-two"]), rule("OP-02", ["m-one"]), rule("CANCEL-03", ["m-three"]), rule("EVT-02", [])],
    notJudged: [],
  };
  assert.deepEqual(
    thinRules(m).map((r) => r.id),
    ["OP-02", "CANCEL-03"],
    "IDEM-01 has two scenarios; EVT-02 none (no teeth, not thin)",
  );
  const text = teethText(m);
  assert.match(text, /IDEM-01 +m-one, m-two\n +features\/x\.feature:4 a lost reply ← m-one\n +features\/x\.feature:30 a retry ← m-one, m-two\n/);
  assert.match(
    text,
    /Thin rules: broken in one scenario only \(2 of 3 broken\)[^\n]*\n +OP-02 +MUST features\/x\.feature:30 a retry ← m-one\n +CANCEL-03 +MUST features\/c\.feature:9 a cancel ← m-three\n/,
  );
  const md = teethMarkdown(m);
  assert.match(md, /\| IDEM-01 \| `features\/x\.feature:4` a lost reply \| m-one \|\n\| +\| `features\/x\.feature:30` a retry \| m-one, m-two \|/);
  assert.match(md, /## Thin rules: broken in one scenario only \(2 of 3\)[\s\S]*- OP-02 \(MUST\): `features\/x\.feature:30` a retry \(m-one\)\n- CANCEL-03/);
  assert.match(teethText({ ...m, rules: [rule("IDEM-01", ["m-one", "m-two"])] }), /Thin rules: broken in one scenario only \(0 of 1 broken\)[^\n]*\n  none\n/);
});
