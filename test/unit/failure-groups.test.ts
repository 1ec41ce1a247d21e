import assert from "node:assert/strict";
import { test } from "node:test";
import { failureGroups, setupProblemOf } from "../../harness/report/failure-groups.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { htmlReport } from "../../harness/report/html-report.js";
import { markdownReport } from "../../harness/report/markdown-report.js";
import { notRunSummary } from "../../harness/report/run-summary.js";

const failed = (name: string, step: string, reason: string, blame: string[], failedAtStep = 2): ScenarioResult => ({
  name,
  uri: "features/x.feature",
  line: name.length,
  tags: blame.map((id) => `@${id}`),
  verdict: "fail",
  reason,
  durationMs: 1,
  blame,
  failedAtStep,
  status: "FAILED",
  failure: { step, message: reason, request: undefined, reply: undefined, ledger: [], brokerLog: "" },
});
const passed = (name: string): ScenarioResult => ({
  name,
  uri: "features/x.feature",
  line: 1,
  tags: [],
  verdict: "pass",
  status: "PASSED",
  reason: undefined,
  durationMs: 1,
});

test("failures of one defect form one group, whatever identifiers, numbers and names differ", () => {
  const groups = failureGroups(
    [
      failed(
        "a",
        'Then the reply returns the prior operation "first"',
        "ConformanceViolation: lomi_terminal_create answered op-jb7rub4gnxwp, a new operation, at revision 4",
        ["IDEM-01", "OP-01"],
      ),
      failed(
        "b",
        'Then the reply returns the prior operation "second"',
        "ConformanceViolation: lomi_file_write answered op-zz7rub4gnxwq, a new operation, at revision 17",
        ["REV-31", "IDEM-01"],
      ),
      failed("c", "Then the reply is the error IDEMPOTENCY_CONFLICT", "expected IDEMPOTENCY_CONFLICT", ["IDEM-02"]),
      passed("d"),
    ],
    () => true,
  );
  assert.equal(groups.length, 2);
  assert.deepEqual(
    groups[0]!.scenarios.map((s) => s.name),
    ["b", "a"],
    "the plainest failure first",
  );
  assert.deepEqual(groups[0]!.rules, ["IDEM-01", "OP-01", "REV-31"]);
  assert.equal(
    groups[0]!.cause,
    "lomi_file_write answered op-zz7rub4gnxwq, a new operation, at revision 17",
    "the plainest failure, quoted verbatim: identifiers and values kept",
  );
  assert.equal(groups[0]!.step, 'Then the reply returns the prior operation "second"');
  assert.deepEqual(
    failureGroups([failed("a", "Then x", "y", ["OP-01"])], () => false),
    [],
    "a baselined failure is not a cause the gate counts",
  );
});

test("failures an oracle finding explains group by that finding, whichever step failed first", () => {
  const byOracle = (name: string, step: string, message: string): ScenarioResult => {
    const f = failed(name, step, `${message}\nmore`, ["IDEM-01"]);
    return {
      ...f,
      failure: {
        ...f.failure!,
        oracles: [
          {
            id: "idempotency",
            title: "t",
            rules: ["IDEM-01"],
            violations: [
              {
                message: 'a retry of lomi_terminal_run "run-1" with the same arguments made another operation (op-2, the first was op-1)',
                rules: ["IDEM-01"],
                records: [],
              },
            ],
          },
        ],
      },
    };
  };
  const groups = failureGroups(
    [
      byOracle("a", 'Then operation "x" is the first', "expected op-1, found op-2"),
      byOracle("b", "Then Lomi saw 1 dispatch", "saw 2 dispatches of run-1 in Lomi's ledger, expected 1"),
    ],
    () => true,
  );
  assert.equal(groups.length, 1);
  assert.equal(groups[0]!.finding, "oracle idempotency (IDEM-01)");
  assert.match(groups[0]!.cause, /made another operation \(op-2, the first was op-1\)/);
});

test("every scenario failing at its start the same way is a setup problem; a failure later, or another cause, is not", () => {
  const atStart = (name: string) =>
    failed(name, 'Given the agent is connected to workspace "ws-alpha"', "ConformanceViolation: lomi_connect answered INTERNAL: no database", ["OP-01"], 0);
  const cause = setupProblemOf([atStart("a"), atStart("b"), { ...passed("c"), verdict: "not-applicable" }]);
  assert.match(cause ?? "", /every one of the 2 scenarios that ran failed at its first step the same way.*lomi_connect answered INTERNAL: no database/);
  assert.equal(setupProblemOf([atStart("a"), atStart("b"), passed("c")]), undefined, "a scenario passed");
  assert.equal(setupProblemOf([atStart("a"), { ...atStart("b"), failedAtStep: 3 }]), undefined, "one failed later");
  assert.equal(setupProblemOf([atStart("a"), { ...atStart("b"), reason: "another cause" }]), undefined, "two causes");
  assert.equal(setupProblemOf([atStart("a")]), undefined, "one scenario is not a pattern");
});

test("conformance.md opens with the causes, conformance.html with the grid and the causes, before the rules", () => {
  const base = notRunSummary(
    "x",
    { broker: { adapter: "t", serverInfo: undefined }, seed: 1, level: "must", tags: undefined, startedAt: "2026-01-05T09:00:00.000Z", requireAll: false },
    "stdio",
  );
  const groups = failureGroups(
    [failed("a", "Then the reply returns the prior operation", "a duplicate must return the prior operation", ["IDEM-01"])],
    () => true,
  );
  const run = {
    ...base,
    verdict: "not-conformant" as const,
    headline: "NOT CONFORMANT",
    failureGroups: groups,
    rules: [{ id: "IDEM-01", level: "MUST" as const, title: "t", source: "s", family: "IDEM", verdict: "fail" as const, reason: "r", scenarios: [] }],
  };
  const md = markdownReport(run);
  assert.ok(md.indexOf("Likely root causes") > 0 && md.indexOf("Likely root causes") < md.indexOf("| rule |"), md);
  assert.match(md, /\*\*1 scenario\(s\)\*\* failing IDEM-01: at `Then the reply returns the prior operation`: a duplicate must return the prior operation/);
  const html = htmlReport(run);
  // The page opens on the grid and the causes; the rules' sections (and any failure's detail) below.
  const [grid, causes, rules] = [html.indexOf('<table class="grid">'), html.indexOf("Likely root causes"), html.indexOf('<section class="family">')];
  assert.ok(grid > 0 && grid < causes && causes < rules, `grid at ${grid}, causes at ${causes}, rules at ${rules}`);
});
