import { citedRules } from "../rules.js";
import type { ScenarioResult } from "./scenario-results.js";
import type { RunSummary } from "./write-reports.js";

const xml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

const property = (name: string, value: string) => `<property name="${xml(name)}" value="${xml(value)}"/>`;

/**
 * junit.xml that agrees with the gate: one test case per scenario carrying the rule IDs it cites
 * (properties), a failure only where the gate counts one (a baselined failure is skipped with its
 * reason, not-applicable is skipped, never passed), and a "gate" test case that fails exactly when
 * the run exits 1, so a stale baseline entry fails CI's view of the run too.
 */
export function junitXml(run: RunSummary, results: readonly ScenarioResult[], baselined: (s: ScenarioResult) => string | undefined): string {
  const known = new Set(run.rules.map((r) => r.id));
  const cases = results.map((s) => {
    const rules = citedRules(s.tags, known);
    const failed = s.blame ?? rules;
    const blame = s.verdict === "fail" ? failed.map((id) => property("failed-rule", id)).join("") : "";
    const props = `<properties>${rules.map((id) => property("rule", id)).join("")}${blame}${property("verdict", s.verdict)}</properties>`;
    const expected = baselined(s);
    const body =
      s.verdict === "pass"
        ? ""
        : s.verdict === "not-applicable"
          ? `<skipped message="${xml(`not applicable: ${s.reason ?? ""}`)}"/>`
          : expected !== undefined
            ? `<skipped message="${xml(`baselined (${expected}): ${s.reason ?? ""}`)}"/>`
            : `<failure message="${xml(`${failed.join(", ")}: ${(s.reason ?? "").split("\n")[0]}`)}" type="${xml(s.status)}">${xml(`${s.stepAt ?? s.uri}: ${s.failure?.step ?? ""}\n${s.reason ?? ""}`)}</failure>`;
    return `    <testcase classname="${xml(s.uri)}" name="${xml(s.name)}" time="${(s.durationMs / 1000).toFixed(3)}">${props}${body}</testcase>`;
  });
  // A run that never started errors (CI shows it as broken), it does not fail.
  const errored = run.verdict === "not-run";
  const gate = errored ? `<error message="${xml(run.headline.split("\n")[0] ?? "")}">${xml(run.problems.join("\n"))}</error>` : run.problems.length > 0 ? `<failure message="${xml(`${run.verdict}: ${run.problems.length} gate problem(s)`)}">${xml(run.problems.join("\n"))}</failure>` : "";
  cases.push(`    <testcase classname="lomi-conformance" name="gate: ${xml(run.headline)}" time="0">${gate}</testcase>`);
  const failures = results.filter((s) => s.verdict === "fail" && baselined(s) === undefined).length + (gate && !errored ? 1 : 0);
  const skipped = results.length - results.filter((s) => s.verdict === "pass").length - (failures - (gate && !errored ? 1 : 0));
  const suiteProps = [property("verdict", run.verdict), property("profile", run.profile.name), property("seed", String(run.seed)), property("level", run.level)].join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="lomi conformance" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${(run.durationMs / 1000).toFixed(3)}">
  <testsuite name="lomi conformance" tests="${cases.length}" failures="${failures}" skipped="${skipped}" errors="${errored ? 1 : 0}" time="${(run.durationMs / 1000).toFixed(3)}">
    <properties>${suiteProps}</properties>
${cases.join("\n")}
  </testsuite>
</testsuites>
`;
}
