import { citedRules } from "../rules.js";
import { NOT_RUN, type ScenarioResult } from "./scenario-results.js";
import { summaryOf } from "./failure-context.js";
import { titleOf, type RunSummary } from "./run-summary.js";

const xml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

const property = (name: string, value: string) => `<property name="${xml(name)}" value="${xml(value)}"/>`;

/** An attribute value: newlines kept as character references, so a message is whole in one attribute. */
const attribute = (text: string) => xml(text).replace(/\n/g, "&#10;");

/** One failed attempt of a retried scenario, as Surefire's rerun elements: its message, and its seed and replay line. */
const rerunElement = (tag: "flakyFailure" | "rerunFailure", a: { attempt: number; seed?: number | undefined; reason?: string | undefined; replay: string }) =>
  `<${tag} message="${attribute(`attempt ${a.attempt} (seed ${a.seed ?? "?"}): ${a.reason ?? "failed"}`)}" type="attempt-${a.attempt}"><stackTrace>${xml(`replay: ${a.replay}`)}</stackTrace></${tag}>`;

/** Where the verdict comes from, as properties a CI reader keeps with the run: the kit and its rules, the broker, Node, the start and the evidence. */
function provenanceProperties(run: RunSummary): string[] {
  const p = run.provenance;
  if (!p) return [];
  return [
    property("kit", p.kit.name),
    property("kit-version", p.kit.version),
    property("rules-digest", p.rules.digest),
    property("broker", p.broker.adapter),
    ...(p.broker.serverInfo ? [property("broker-server", `${p.broker.serverInfo.name} ${p.broker.serverInfo.version}`)] : []),
    ...(p.broker.digest ? [property("broker-digest", `${p.broker.digest.of} ${p.broker.digest.sha256}`)] : []),
    property("node", p.node),
    property("started-at", p.startedAt),
    ...(run.evidence ? [property("evidence-digest", run.evidence.digest)] : []),
  ];
}

/** The name CI shows for the gate's own test case: the same every run, so history and flakiness tools can follow it. */
export const GATE_CASE = "lomi-conformance gate";

/**
 * junit.xml that agrees with the gate: one test case per scenario, named with the rule IDs it cites
 * ("[IDEM-01 REV-01] A retry …": JUnit readers show names, most ignore properties), a failure only
 * where the gate counts one (a baselined failure is skipped with its reason, not-applicable is
 * skipped, never passed), and a "lomi-conformance gate" test case that fails exactly when the run
 * exits 1 and errors when it never ran, with the whole cause. The counts at both levels agree.
 */
export function junitXml(run: RunSummary, results: readonly ScenarioResult[], baselined: (s: ScenarioResult) => string | undefined): string {
  const known = new Set(run.rules.map((r) => r.id));
  const verdicts = new Map((run.scenarioVerdicts ?? []).map((v) => [`${v.uri}:${v.name}`, v]));
  /** A retried scenario's failed attempts but its last. */
  const attemptsOf = (s: ScenarioResult) => (verdicts.get(`${s.uri}:${s.name}`)?.attempts ?? []).slice(0, -1);
  const byId = new Map(run.rules.map((r) => [r.id, r]));
  let failures = 0;
  let skipped = 0;
  const cases = results.map((s) => {
    const rules = citedRules(s.tags, known);
    const failed = s.blame ?? rules;
    const blame = s.verdict === "fail" ? failed.map((id) => property("failed-rule", id)).join("") : "";
    // Each rule's title and source sentence, for a CI reader that shows properties beside the failure.
    const cited = rules
      .map((id) => property("rule", id) + property(`${id} title`, byId.get(id)?.title ?? "") + property(`${id} source`, byId.get(id)?.source ?? ""))
      .join("");
    const props = `<properties>${cited}${blame}${property("verdict", s.verdict)}</properties>`;
    const expected = baselined(s);
    const tries = attemptsOf(s);
    let body = "";
    if (s.verdict === "not-applicable") body = `<skipped message="${attribute(`${s.status === NOT_RUN ? "not run" : "not applicable"}: ${s.reason ?? ""}`)}"/>`;
    else if (s.verdict === "fail" && expected !== undefined) body = `<skipped message="${attribute(`baselined (${expected}): ${s.reason ?? ""}`)}"/>`;
    else if (s.verdict === "fail")
      body = `<failure message="${attribute(`${failed.join(", ")}: ${summaryOf(s.reason)}`)}" type="${xml(s.status)}">${xml(`${s.stepAt ?? s.uri}: ${s.failure?.step ?? ""}\n${s.reason ?? ""}`)}</failure>`;
    // Each earlier attempt as Maven Surefire writes a rerun, which Jenkins, GitLab and most JUnit readers show:
    // <flakyFailure> in a test case that passed in the end, <rerunFailure> beside the <failure> of one that never did.
    if (tries.length > 0 && (s.verdict === "pass" || body.startsWith("<failure")))
      body += tries.map((a) => rerunElement(s.verdict === "pass" ? "flakyFailure" : "rerunFailure", a)).join("");
    if (body.startsWith("<skipped")) skipped++;
    if (body.startsWith("<failure")) failures++;
    const name = rules.length > 0 ? `[${rules.join(" ")}] ${s.name}` : s.name;
    return `    <testcase classname="${xml(s.uri)}" name="${xml(name)}" time="${(s.durationMs / 1000).toFixed(3)}">${props}${body}</testcase>`;
  });
  // A run that never started errors (CI shows it as broken), it does not fail.
  const errored = run.verdict === "not-run";
  // The headline as the other reports' titles give it: a partial run says so here too.
  const headline = titleOf(run, (t) => t);
  const cause = xml([headline, ...run.problems.filter((p) => !headline.includes(p))].join("\n"));
  const gate = errored
    ? `<error message="${attribute(headline)}" type="not-run">${cause}</error>`
    : run.problems.length > 0
      ? `<failure message="${attribute(`${headline} (${run.problems.length} gate problem(s))`)}" type="${run.verdict}">${cause}</failure>`
      : "";
  if (gate && !errored) failures++;
  cases.push(
    `    <testcase classname="lomi-conformance" name="${GATE_CASE}" time="0"><properties>${property("headline", headline)}</properties>${gate}</testcase>`,
  );
  const errors = errored ? 1 : 0;
  const suiteProps = [
    property("verdict", run.verdict),
    property("headline", headline),
    property("profile", run.profile.name),
    property("seed", String(run.seed)),
    property("level", run.level),
    ...provenanceProperties(run),
  ].join("");
  const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${(run.durationMs / 1000).toFixed(3)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="lomi conformance" ${counts}>
  <testsuite name="lomi conformance" ${counts}>
    <properties>${suiteProps}</properties>
${cases.join("\n")}
  </testsuite>
</testsuites>
`;
}
