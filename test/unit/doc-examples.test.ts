import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { capabilityTag } from "../../harness/run/capabilities.js";
import { scenarioCatalogue } from "../../harness/run/feature-catalogue.js";
import { profileOf } from "../../harness/run/profiles.js";
import { badgeMessage } from "../../harness/report/badge.js";
import { judgeMadeUpRun } from "../support/judge.js";
import type { ScenarioResult } from "../../harness/report/scenario-results.js";
import { loadRules } from "../../harness/rules.js";

/**
 * The run a correct broker gets over stdio with fault hooks, judged by the reports' own code: every
 * scenario passes but those needing a capability the stdio profile lacks (two connections at once),
 * which are not applicable. docs/implementers.md quotes its verdict line and badge.
 */
function correctStdioRun() {
  const profile = profileOf({ adapter: "command", brokerCommand: "your-broker", brokerCwd: "/", brokerFaults: true, seed: 1, timeoutMs: 10_000 });
  const suite = scenarioCatalogue();
  const lacking = profile.lacks.map(capabilityTag);
  const results: ScenarioResult[] = suite.map((s) => {
    const missing = s.tags.find((t) => lacking.includes(t));
    return {
      name: s.name,
      uri: s.uri,
      line: s.line,
      tags: [...s.tags],
      verdict: missing ? "not-applicable" : "pass",
      status: missing ? "SKIPPED" : "PASSED",
      reason: missing && `the adapter lacks ${missing}`,
      durationMs: 1,
    };
  });
  return judgeMadeUpRun({
    rules: loadRules().rules,
    results,
    suite: suite.map((s) => ({ name: s.name, tags: [...s.tags], uri: s.uri, line: s.line })),
    profile,
    broker: { adapter: "command", serverInfo: undefined },
  }).run;
}

test("docs/implementers.md's stdio verdict line and badge are what a correct broker's run over stdio gets today", () => {
  const run = correctStdioRun();
  const doc = readFileSync(kitPath("docs/implementers.md"), "utf8");
  assert.ok(
    doc.includes(`    lomi-conformance: ${run.headline}\n`),
    `docs/implementers.md should quote the verdict line:\n    lomi-conformance: ${run.headline}`,
  );
  assert.ok(doc.includes(`("${badgeMessage(run)}")`), `docs/implementers.md should quote the badge: ("${badgeMessage(run)}")`);
});

test("README's example progress line counts the suite's scenarios", () => {
  const shown = /`\[\d+\/(\d+)\] IDEM-01 … passed/.exec(readFileSync(kitPath("README.md"), "utf8"))?.[1];
  assert.equal(Number(shown), scenarioCatalogue().length, "README's [N/M] line: M is the number of scenarios a whole run counts");
});
