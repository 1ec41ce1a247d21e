import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { publishedToolsFinding, type ListedTool } from "../../harness/contract-checks/published-tools.js";
import { violation } from "../../harness/harness-error.js";
import { BLAME_MEDIA_TYPE } from "../../harness/report/attachments.js";
import { concludeRun } from "../../harness/report/conclude-run.js";
import { readMessages } from "../../harness/report/message-stream.js";
import { scenarioResults } from "../../harness/report/scenario-results.js";
import { oracleHead } from "../../harness/report/oracle-findings.js";
import { loadRules } from "../../harness/rules.js";
import { CATALOGUE, publishedTool } from "../../protocol/catalogue.js";
import { messagesOf } from "../support/cucumber-messages.js";
import { madeUpRunInputs } from "../support/judge.js";
import { runFeature } from "../support/run-feature.js";

// Three failures as an implementer meets them: a count step and a bytes step run by cucumber with the
// kit's steps (each expects what the reference broker does not do, as a broker that differs would
// make them fail), and ENV-04's finding on a tools/list without annotations (the step's own finding,
// as cucumber reports a thrown violation). Each must read once: its values on the summary line
// every report shows, one expected/found, and for ENV-04 where docs/ say what passes.
const FEATURE = `Feature: failures that read once
  Background:
    Given the agent is connected to workspace "ws-alpha"

  @CAP-04
  Scenario: a reconciliation that removed less than the step counts
    When the agent asks to reconcile the store
    And the user approves the store reconciliation
    And the agent asks to reconcile the store
    Then the reconciliation removed 1 receipt, 0 retry epochs and 3 events, and kept 0 receipts, 0 unfinished and 0 outcome_unknown

  @REV-30
  Scenario: a file read whose bytes are not the step's
    When the agent reads the file "scripts/test.cmd" in workspace "ws-alpha"
    Then the file read shows the bytes "40 65 63 68 6f 20 6f 66 66 0a 6e 70 6d 20 74 65 73 74 0a"
`;

const COUNT = "removed.receipts: 0, expected 1; removed.events: 0, expected 3";
const BYTES =
  "lomi_file_read's bytes: 21 bytes, expected 19; from byte 9 on: 0d 0a 6e 70 6d 20 74 65 …, expected 0a 6e 70 6d 20 74 65 73 … (the exact bytes on disk)";
const POINTER =
  'how to satisfy ENV-04: docs/implementers.md, "How your broker meets the simulated Lomi": Serving `docs/catalogue.json`\'s tool objects as they stand passes.';
/** Any assertion library's diff: Node's "+ actual - expected", cucumber's "+ expected - actual", and (in a message) their +/- lines. */
const LIBRARY_WORDS = /strictly deep-equal|\+ actual|\+ expected/;
const LIBRARY_DIFF = new RegExp(`${LIBRARY_WORDS.source}|^\\s*[+-] {1,3}\\S`, "m");

/** A broker that publishes the catalogue's tools without their annotations. */
const withoutAnnotations = (): ListedTool[] => CATALOGUE.map((c) => ({ name: c.name, outputSchema: publishedTool(c).outputSchema }));

const count = (text: string, part: string) => text.split(part).length - 1;

test("a failed count step, a failed bytes step and an ENV-04 finding each read once: the values on the summary line, one expected/found, the pointer once", async () => {
  const ran = await runFeature(FEATURE);
  assert.deepEqual(
    ran.results.map((r) => r.verdict),
    ["fail", "fail"],
    JSON.stringify(ran.results.map((r) => r.reason)),
  );
  const finding = publishedToolsFinding(withoutAnnotations());
  assert.ok(finding, "a tools/list without annotations is an ENV-04 finding");
  const env04 = scenarioResults(
    readMessages(
      writeStream(
        messagesOf([
          {
            name: "tools/list publishes the catalogue",
            tags: ["@ENV-04"],
            status: "FAILED",
            message: violation(finding, ["ENV-04"]).stack!,
            attachments: [{ body: JSON.stringify({ rules: ["ENV-04"] }), mediaType: BLAME_MEDIA_TYPE }],
          },
        ]),
      ),
    ),
  );
  const results = [...ran.results, ...env04];

  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-failure-reading-"));
  let consoleText = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => ((consoleText += String(chunk)), true)) as typeof process.stdout.write;
  try {
    concludeRun({
      ...madeUpRunInputs({ rules: loadRules().rules, results, suite: results }),
      reports: dir,
      writeBaseline: undefined,
      baselineEntries: "scenario",
    });
  } finally {
    process.stdout.write = write;
  }
  const md = readFileSync(path.join(dir, "conformance.md"), "utf8");
  const html = readFileSync(path.join(dir, "conformance.html"), "utf8");
  const causes = md.slice(md.indexOf("Likely root causes"), md.indexOf("| rule |"));
  const htmlCauses = html.slice(html.indexOf('<section class="causes">'), html.indexOf("</section>", html.indexOf('<section class="causes">')));
  const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

  // The values that differ, whole, wherever a summary line is shown.
  const envSummary = finding.split("\n")[0]!;
  assert.match(
    envSummary,
    /^tools\/list publishes \d+ of its \d+ catalogue tools otherwise than docs\/catalogue\.json: the annotations of \d+ \(lomi_\w+, lomi_\w+, lomi_\w+, and \d+ more\)$/,
  );
  assert.ok(envSummary.length < 300, `one line a reader takes in: ${envSummary.length} characters`);
  for (const summary of [COUNT, BYTES, envSummary]) {
    assert.ok(
      consoleText.split("\n").some((l) => l.startsWith("  CAUSE of 1 failed scenario(s)") && l.endsWith(`: ${summary}`)),
      `the console's CAUSE line: ${summary}\n${consoleText}`,
    );
    assert.ok(causes.includes(`: ${summary} (`), `conformance.md's root causes: ${summary}\n${causes}`);
    assert.ok(htmlCauses.includes(`<span class="cause">${escaped(summary)}</span>`), `conformance.html's root causes: ${summary}`);
  }

  // One expected/found per failure: the summary once in its failure's section, no library's diff anywhere.
  const sections = md
    .slice(md.indexOf("### Failures"))
    .split(/<details><summary>(?=[A-Z]+-\d{2})/)
    .slice(1);
  assert.equal(sections.length, 3);
  for (const [summary, section] of [
    [COUNT, sections.find((s) => s.includes("reconciliation"))!],
    [BYTES, sections.find((s) => s.includes("file read"))!],
    [envSummary, sections.find((s) => s.includes("ENV-04"))!],
  ] as const) {
    assert.equal(count(section, "Expected / found:"), 1, section);
    assert.equal(count(section, summary), 1, `the summary once: ${section}`);
    assert.doesNotMatch(section, LIBRARY_WORDS);
  }
  for (const r of results) assert.doesNotMatch(r.reason ?? "", LIBRARY_DIFF, "no assertion library's message is the evidence");
  const bytesSection = sections.find((s) => s.includes("file read"))!;
  assert.match(
    bytesSection,
    /found: {4}40 65 63 68 6f 20 6f 66 66 0d 0a 6e 70 6d 20 74 65 73 74 0d 0a\nexpected: 40 65 63 68 6f 20 6f 66 66 0a 6e 70 6d 20 74 65 73 74 0a/,
    "both byte strings below the summary, found first as on the summary line",
  );

  // ENV-04's detail, a line per tool, folded under its summary; the pointer once a run, not once per tool.
  assert.equal(finding.split("\n").length, 1 + CATALOGUE.length, "a line per tool below the summary");
  assert.match(
    sections.find((s) => s.includes("ENV-04"))!,
    /<details><summary>the detail \(\d+ lines\)<\/summary>[\s\S]*lomi_workspace_list: annotations\.readOnlyHint: absent, expected true/,
  );
  assert.match(html, /<pre class="found">tools\/list publishes [^<]*<\/pre><details class="detail"><summary>the detail \(\d+ lines\)<\/summary><pre>lomi_/);
  assert.equal(count(consoleText, POINTER), 1, consoleText);
  assert.equal(count(causes, POINTER), 1, causes);
  assert.equal(count(htmlCauses, escaped(POINTER).replace("`docs/catalogue.json`", "<code>docs/catalogue.json</code>")), 1, htmlCauses);
  assert.equal(count(md, "docs/implementers.md"), 1, "the pointer is in the root causes only: once a run");
});

function writeStream(text: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-failure-reading-messages-")), "messages.ndjson");
  writeFileSync(file, text);
  return file;
}

test("a finding is headed by the rules it breaks, each once, and one that names none says so", () => {
  assert.equal(oracleHead("effects-requested", [{ rules: ["DUR-01", "DUR-06"] }, { rules: ["DUR-01"] }]), "effects-requested (DUR-01, DUR-06)");
  assert.equal(oracleHead("effect-state-agrees", [{ rules: [] }]), "effect-state-agrees (no rule)");
});
