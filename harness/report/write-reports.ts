import { writeFileSync } from "node:fs";
import path from "node:path";
import { badgeSvg } from "./badge.js";
import { junitXml } from "./junit.js";
import { htmlReport } from "./html-report.js";
import { markdownReport } from "./markdown-report.js";
import { notRunSummary, titleOf, type RunSummary } from "./run-summary.js";
import type { ScenarioResult } from "./scenario-results.js";

export const REPORT_FILES = ["cucumber.html", "junit.xml", "messages.ndjson", "conformance.json", "conformance.md", "conformance.svg", "conformance.html"];

/**
 * conformance.json: the run, with `title` beside `headline`: the headline as every report's title
 * gives it, a partial run saying so ("partial run (tags @IDEM-01): 3 of 120 rules reached; on those: …").
 */
export function jsonReport(run: RunSummary): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(run).flatMap(([key, value]) =>
      key === "headline"
        ? [
            [key, value],
            ["title", titleOf(run, (t) => t)],
          ]
        : [[key, value]],
    ),
  );
}

/** Each report file, how it is made from the judged run, and what is written instead when it cannot be (verify makes them again). */
export function reportMakers(
  run: RunSummary,
  results: readonly ScenarioResult[],
  baselined: (s: ScenarioResult) => string | undefined,
): Array<[string, () => string, (why: string) => string]> {
  return [
    [
      "junit.xml",
      () => junitXml(run, results, baselined),
      (why) =>
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="lomi conformance" tests="1" failures="0" errors="1"><testsuite name="lomi conformance" tests="1" failures="0" errors="1"><testcase classname="lomi-conformance" name="lomi-conformance gate"><error message="the harness could not write this report">${why.replace(/[<>&"]/g, " ")}</error></testcase></testsuite></testsuites>\n`,
    ],
    [
      "conformance.json",
      () => `${JSON.stringify(jsonReport(run), null, 2)}\n`,
      (why) => `${JSON.stringify({ verdict: run.verdict, headline: run.headline, reportError: why }, null, 2)}\n`,
    ],
    ["conformance.md", () => markdownReport(run), (why) => `## Lomi conformance: ${run.headline}\n\nThe harness could not write this report: ${why}\n`],
    ["conformance.svg", () => badgeSvg(run), () => badgeSvg(notRunSummary("report error", run, run.profile.name))],
    [
      "conformance.html",
      () => htmlReport(run),
      (why) =>
        `<!doctype html><meta charset="utf-8"><title>Lomi conformance</title><p>The harness could not write this report: ${why.replace(/[<>&"]/g, " ")}</p>\n`,
    ],
  ];
}

/**
 * Writes every report. Each is made on its own: one that cannot be made (a fault of the harness's)
 * is written as a note saying so and why, the others are written whole, and the faults are answered
 * so the run can report them as the harness's own.
 */
export function writeReports(dir: string, run: RunSummary, results: readonly ScenarioResult[], baselined: (s: ScenarioResult) => string | undefined): string[] {
  const faults: string[] = [];
  for (const [file, make, instead] of reportMakers(run, results, baselined)) {
    let text: string;
    try {
      text = make();
    } catch (error) {
      const why = `${file}: ${error instanceof Error ? error.message : String(error)}`;
      faults.push(why);
      text = instead(why);
    }
    writeFileSync(path.join(dir, file), text);
  }
  return faults;
}
