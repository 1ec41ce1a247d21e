import assert from "node:assert/strict";
import { test } from "node:test";
import { badgeSvg } from "../../harness/report/badge.js";
import { explainFailure } from "../../harness/report/failure-context.js";
import type { RuleReport } from "../../harness/report/rule-verdicts.js";
import { htmlReport } from "../../harness/report/html-report.js";
import { junitXml } from "../../harness/report/junit.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { jsonReport } from "../../harness/report/write-reports.js";
import { markdownReport } from "../../harness/report/markdown-report.js";
import { notRunSummary, type RunSummary } from "../../harness/report/run-summary.js";

const ledgerEntry = (sequence: number, operationId: string) => ({
  sequence,
  at: "2026-01-05T09:00:00.000Z",
  kind: "dispatch" as const,
  operationId,
  tool: "lomi_terminal_create",
  pairingId: "pair-1",
  detail: { args: {} },
});

test("a failure keeps the last request and reply, and the ledger entries of the operations they name", () => {
  const f = explainFailure('Then Lomi saw 1 dispatch of "first"', "expected 1, saw 2", {
    exchanges: [
      { agent: "agent", tool: "lomi_connect", args: { workspaceId: "ws-alpha" }, reply: { structuredContent: { status: "ok" } } },
      {
        agent: "agent",
        tool: "lomi_terminal_create",
        args: { requestKey: "k" },
        reply: { structuredContent: { status: "ok", data: { operation: { operationId: "op-2" } } } },
      },
    ],
    ledger: [ledgerEntry(1, "op-other"), ledgerEntry(2, "op-2")],
    brokerLog: "",
  });
  assert.deepEqual(f.request, { agent: "agent", tool: "lomi_terminal_create", args: { requestKey: "k" }, sent: '{"requestKey":"k"}' });
  assert.deepEqual(
    f.exchanges?.map((e) => e.tool),
    ["lomi_connect", "lomi_terminal_create"],
    "every call, in order",
  );
  assert.deepEqual(f.reply, { status: "ok", data: { operation: { operationId: "op-2" } } });
  assert.deepEqual(
    f.ledger.map((e) => e.operationId),
    ["op-2"],
  );
});

test("a call that never answered is explained by why, as the attachment carries it (JSON drops the absent reply)", () => {
  const context = {
    exchanges: [{ agent: "agent", tool: "lomi_workspace_list", args: {}, reply: undefined, error: "timed out after 10000 ms" }],
    ledger: [],
    brokerLog: "",
  };
  const f = explainFailure(undefined, "timeout", JSON.parse(JSON.stringify(context)));
  assert.equal(f.reply, "timed out after 10000 ms");
});

const ruleReport = (id: string, verdict: RuleReport["verdict"], scenarios: RuleReport["scenarios"] = []): RuleReport => ({
  id,
  level: "MUST",
  title: `title of ${id}`,
  source: "s",
  family: id.split("-")[0]!,
  verdict,
  reason: verdict === "pass" ? undefined : "why",
  scenarios,
});

function run(verdict: RunSummary["verdict"], rules: RuleReport[]): RunSummary {
  return {
    broker: { adapter: "test", serverInfo: { name: "b", version: "1" } },
    seed: 1,
    level: "must",
    tags: undefined,
    baseline: undefined,
    startedAt: "2026-01-05T09:00:00.000Z",
    durationMs: 1000,
    profile: { name: "in-process", notJudged: [], elsewhere: "" },
    requireAll: false,
    verdict,
    headline: verdict,
    conformant: verdict === "conformant",
    problems: [],
    warnings: [],
    failureGroups: [],
    scenarios: { total: 1, pass: 0, fail: 1, baselined: 0, notApplicable: 0 },
    rules,
    baselineEntries: [],
    scenariosInSuite: Object.fromEntries(rules.map((r) => [r.id, r.scenarios.length])),
  };
}

test("conformance.md explains a failed scenario once, naming every rule it fails", () => {
  const failed = {
    name: "retry",
    uri: "features/retry.feature",
    line: 9,
    verdict: "fail" as const,
    reason: "boom",
    failure: explainFailure("Then x", "boom", undefined),
  };
  const md = markdownReport(
    run("not-conformant", [ruleReport("IDEM-01", "fail", [failed]), ruleReport("OP-01", "fail", [failed]), ruleReport("REV-01", "pass")]),
  );
  assert.equal(md.match(/<details>/g)?.length, 1);
  assert.match(md, /IDEM-01, OP-01 · retry \(features\/retry.feature:9\)/);
  // Each failed rule with its level, title and the source sentence it judges.
  assert.match(md, /- IDEM-01 \(MUST\): title of IDEM-01\n  > s\n- OP-01 \(MUST\): title of OP-01\n  > s/);
  assert.match(md, /\| REV-01 \| MUST \| ✅ pass \|/);
});

test("the badge says the verdict and is coloured by it", () => {
  assert.match(badgeSvg(run("conformant", [ruleReport("A-01", "pass")])), /#4c1[\s\S]*conformant over in-process 1\/1/);
  assert.match(badgeSvg(run("not-conformant", [ruleReport("A-01", "fail"), ruleReport("A-02", "pass")])), /#e05d44[\s\S]*not conformant over in-process 1\/2/);
  assert.match(
    badgeSvg(run("conformant-with-baseline", [ruleReport("A-01", "baselined"), ruleReport("A-02", "pass")])),
    /#dfb317[\s\S]*1\/2 over in-process, 1 baselined/,
  );
});

const passed = (name: string) => ({ name, uri: "features/x.feature", line: 3, verdict: "pass" as const, reason: undefined });

test("a --tags run says it is partial, lists only the rules it reached, and how much of each ran", () => {
  const partial = {
    ...run("conformant", [ruleReport("IDEM-01", "pass", [passed("one")]), ruleReport("OP-01", "not-selected")]),
    tags: "@IDEM-01",
    scenariosInSuite: { "IDEM-01": 5, "OP-01": 2 },
  };
  const md = markdownReport(partial);
  assert.match(md, /^## Lomi conformance: partial run \(tags `@IDEM-01`\): 1 of 2 rules reached; on those: conformant/);
  assert.match(md, /\| IDEM-01 \| MUST \| ✅ pass \(1 of 5 scenarios ran\) \|/);
  assert.doesNotMatch(md, /OP-01/);
  assert.match(htmlReport(partial), /pass \(1 of 5 scenarios ran\)/);
  // junit.xml's gate and conformance.json's title say it too; the JSON keeps the verdict line as headline.
  assert.match(
    junitXml(partial, [], () => undefined),
    /<property name="headline" value="partial run \(tags @IDEM-01\): 1 of 2 rules reached; on those: conformant"\/>/,
  );
  const json = jsonReport(partial);
  assert.equal(json.title, "partial run (tags @IDEM-01): 1 of 2 rules reached; on those: conformant");
  assert.equal(json.headline, "conformant");
  assert.deepEqual(Object.keys(json).slice(Object.keys(json).indexOf("headline"), Object.keys(json).indexOf("headline") + 2), ["headline", "title"]);
});

test("a run of chosen scenarios says it is partial and which it chose", () => {
  const chosen = {
    ...run("conformant", [ruleReport("IDEM-01", "pass", [passed("one")]), ruleReport("OP-01", "not-selected")]),
    selection: "1 scenario that failed in reports/",
  };
  assert.match(markdownReport(chosen), /^## Lomi conformance: partial run \(1 scenario that failed in reports\/\): 1 of 2 rules reached; on those: conformant/);
  assert.match(markdownReport({ ...chosen, tags: "@IDEM-01" }), /partial run \(tags `@IDEM-01`, 1 scenario that failed in reports\/\)/);
});

test("conformance.md keeps every word of a long note", () => {
  const long = `${"a reason that goes on ".repeat(12)}and ends here`;
  const md = markdownReport(run("not-conformant", [{ ...ruleReport("OP-01", "fail"), reason: long }]));
  assert.ok(md.includes(long));
});

test("conformance.html is one self-contained page: a cell per rule coloured by verdict, each rule opening to its source and failure", () => {
  const failed = {
    name: "retry",
    uri: "features/retry.feature",
    line: 9,
    verdict: "fail" as const,
    reason: "boom",
    failure: explainFailure("Then Lomi saw 1 dispatch", "expected 1, saw 2", {
      exchanges: [{ agent: "agent", tool: "lomi_terminal_create", args: { requestKey: "k<1>" }, reply: { structuredContent: { status: "ok" } } }],
      ledger: [],
      brokerLog: "",
    }),
  };
  const html = htmlReport(
    run("not-conformant", [
      { ...ruleReport("IDEM-01", "fail", [failed]), source: "A retry returns the first operation.", decision: "Keys are per pairing." },
      ruleReport("OP-01", "pass"),
    ]),
  );
  assert.match(html, /<a class="cell verdict-fail" href="#IDEM-01"[^>]*style="background:#cf222e">01<small>✗ M/);
  assert.match(html, /<a class="cell verdict-pass" href="#OP-01"[^>]*style="background:#1a7f37">01<small>✓ M/);
  assert.match(
    html,
    /<details id="IDEM-01" class="rule verdict-fail" open>[\s\S]*A retry returns the first operation\.[\s\S]*Keys are per pairing\.[\s\S]*<a href="#failure-1">the failure ↓<\/a>/,
  );
  assert.match(
    html,
    /<details id="failure-1" class="rule failed-scenario" open>[\s\S]*Then Lomi saw 1 dispatch[\s\S]*expected 1, saw 2[\s\S]*lomi_terminal_create[\s\S]*k&lt;1&gt;/,
  );
  assert.match(html, /id="failures-only"[\s\S]*id="search"/, "a failures-only filter and a search box");
  assert.doesNotMatch(html, /(src|href)="https?:/, "nothing is fetched from the network");
});

test("a failure that blames two rules is rendered once on the page, linked from both, with its steps and its request as sent", () => {
  const sent = '{"retryEpoch":"e","requestKey":"k","__proto__":{"x":1}}';
  const context = JSON.parse(
    JSON.stringify({
      exchanges: [{ agent: "agent", tool: "lomi_terminal_create", args: {}, sent, reply: { structuredContent: { status: "ok" } } }],
      ledger: [],
      brokerLog: "",
    }),
  );
  context.exchanges[0].args = JSON.parse(sent);
  const failure = {
    ...explainFailure("Then the reply is the error INVALID_ARGUMENT", "expected INVALID_ARGUMENT, found ok", context),
    steps: [
      { text: "Given the agent is connected", status: "PASSED" },
      { text: "When it sends the arguments", status: "PASSED" },
      { text: "Then the reply is the error INVALID_ARGUMENT", status: "FAILED" },
      { text: "And Lomi saw nothing", status: "SKIPPED" },
    ],
  };
  const failed = { name: "proto", uri: "features/sch.feature", line: 4, verdict: "fail" as const, reason: "found ok", failure };
  const html = htmlReport(run("not-conformant", [ruleReport("SCH-01", "fail", [failed]), ruleReport("SCH-06", "fail", [failed]), ruleReport("OP-01", "pass")]));
  assert.equal(html.match(/expected INVALID_ARGUMENT, found ok/g)?.length, 1, "one failure block, not one per rule");
  assert.equal(html.match(/href="#failure-1"/g)?.length, 2, "each rule it blames links to it");
  assert.match(html, /fails <a class="chip"[^>]*href="#SCH-01">SCH-01<\/a> <a class="chip"[^>]*href="#SCH-06">SCH-06<\/a>/);
  assert.match(html, /__proto__/, "the request as sent, its __proto__ key included");
  assert.match(
    html,
    /<span class="glyph">✓<\/span> Given the agent is connected[\s\S]*<span class="glyph">✗<\/span> Then the reply is the error[\s\S]*<span class="glyph">–<\/span> And Lomi saw nothing/,
  );
  const md = markdownReport(run("not-conformant", [ruleReport("SCH-01", "fail", [failed]), ruleReport("SCH-06", "fail", [failed])]));
  assert.ok(md.includes(sent), "conformance.md quotes the request byte for byte");
  assert.match(
    md,
    /Steps:\n```\n✓ Given the agent is connected\n✓ When it sends the arguments\n✗ Then the reply is the error INVALID_ARGUMENT\n– And Lomi saw nothing\n```/,
  );
});

test("a NOT RUN page shows a coloured banner with the command that was run", () => {
  const notRun = notRunSummary(
    "the broker command exited",
    {
      broker: { adapter: "command", serverInfo: undefined },
      seed: 1,
      level: "must",
      tags: undefined,
      startedAt: "2026-01-01T00:00:00.000Z",
      requireAll: false,
      command: "lomi-conformance --broker-cmd 'node b.mjs'",
    },
    "stdio",
  );
  assert.match(
    htmlReport(notRun),
    /<div class="banner"[^>]*>✗ NOT RUN: nothing was judged\. the broker command exited<code>lomi-conformance --broker-cmd &#39;node b.mjs&#39;|<div class="banner"[^>]*>✗ NOT RUN: nothing was judged\. the broker command exited<code>lomi-conformance --broker-cmd 'node b.mjs'/,
  );
});

const scenarioResult = (name: string, tags: string[], verdict: ScenarioResult["verdict"], reason?: string): ScenarioResult => ({
  name,
  uri: "features/x.feature",
  line: 3,
  tags,
  verdict,
  status: verdict === "pass" ? "PASSED" : "FAILED",
  reason,
  durationMs: 12,
});

test("junit.xml names each test case with the rules it cites, counts errors at both levels, and keeps the gate's name and whole cause", () => {
  const results = [
    scenarioResult("A retry returns the first operation", ["@IDEM-01", "@REV-01"], "fail", "boom"),
    scenarioResult("A read", ["@OP-01"], "pass"),
    scenarioResult("Two at once", ["@AUTH-05", "@needs-multi-connection"], "not-applicable", "one connection"),
  ];
  const failing = {
    ...run("not-conformant", [
      ruleReport("IDEM-01", "fail"),
      ruleReport("REV-01", "fail"),
      ruleReport("OP-01", "pass"),
      ruleReport("AUTH-05", "not-applicable"),
    ]),
    headline: "NOT CONFORMANT over stdio: 3 of 4 rules judged",
    problems: ["IDEM-01: fail (1 of 1 scenario(s) failed)", "REV-01: fail"],
  };
  const xml = junitXml(failing, results, () => undefined);
  assert.match(xml, /<testcase classname="features\/x.feature" name="\[IDEM-01 REV-01\] A retry returns the first operation"/);
  assert.match(xml, /name="\[AUTH-05\] Two at once"[^>]*><properties>[^]*?<skipped message="not applicable: one connection"\/>/);
  assert.match(xml, /<testsuites name="lomi conformance" tests="4" failures="2" errors="0" skipped="1"/);
  assert.match(xml, /<testsuite name="lomi conformance" tests="4" failures="2" errors="0" skipped="1"/);
  assert.match(
    xml,
    /<testcase classname="lomi-conformance" name="lomi-conformance gate"[^]*<failure message="NOT CONFORMANT over stdio: 3 of 4 rules judged \(2 gate problem\(s\)\)" type="not-conformant">NOT CONFORMANT over stdio: 3 of 4 rules judged\nIDEM-01: fail \(1 of 1 scenario\(s\) failed\)\nREV-01: fail<\/failure>/,
  );

  const cause = 'the broker command "node broker.mjs" exited (code 1).\nstderr:\n  [boot] Error: cannot open the store';
  const notRun = junitXml(
    notRunSummary(
      cause,
      {
        broker: { adapter: "command", serverInfo: undefined },
        seed: 1,
        level: "must",
        tags: undefined,
        startedAt: "2026-01-01T00:00:00.000Z",
        requireAll: false,
      },
      "stdio",
    ),
    [],
    () => undefined,
  );
  assert.match(notRun, /<testsuites name="lomi conformance" tests="1" failures="0" errors="1"/, "a reader that sums the root sees the error");
  assert.match(
    notRun,
    /name="lomi-conformance gate"[^]*<error message="NOT RUN: the broker command &quot;node broker.mjs&quot; exited \(code 1\).&#10;stderr:&#10;  \[boot\] Error: cannot open the store" type="not-run">/,
    "the whole cause, not its first line",
  );
});
