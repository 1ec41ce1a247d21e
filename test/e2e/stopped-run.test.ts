import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { REPORT_FILES } from "../../harness/report/write-reports.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

type Report = {
  verdict: string;
  headline: string;
  scenarios: { pass: number; fail: number; total: number; notApplicable: number; notRun?: number };
  rules: Array<{ id: string; verdict: string; reason?: string; scenarios: Array<{ name: string; verdict: string; reason?: string }> }>;
};

/** Scenarios enough that a stop after the third finds most of them still to run. */
const TAGS = "@IDEM-01 or @OP-01 or @REV-01 or @CANCEL-01";

interface Stopped {
  code: number | null;
  output: string;
  reports: string;
  sent: boolean;
}

/**
 * Runs lomi-conformance in a process group of its own, as a terminal or a CI runner starts it, and
 * stops it with `stop` the moment its own output matches `when` (never after a sleep). Answers once
 * every process of the run has let go of its output: the harness and its parallel workers too.
 */
async function stopRun(args: readonly string[], when: RegExp, stop: (child: ChildProcess & { pid: number }) => void): Promise<Stopped> {
  const reports = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-stopped-")), "reports");
  const child = spawn(process.execPath, ["bin/lomi-conformance.js", ...args, ...TIMEOUT_ARGS, "--reports", reports], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let sent = false;
  const read = (c: Buffer) => {
    output += c.toString();
    if (!sent && when.test(output)) {
      sent = true;
      stop(child as ChildProcess & { pid: number });
    }
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  const [code] = (await once(child, "close")) as [number | null];
  return { code, output, reports, sent };
}

/**
 * What every stopped run leaves, however it was stopped: exit 2, one verdict on the console and
 * nothing after it (no second verdict, no progress line, no worker's stack trace), the reports and
 * nothing else beside them, each saying NOT RUN, no rule failed.
 */
function assertStoppedRun(r: Stopped, signal: string): Report {
  const tail = r.output.slice(-3000);
  assert.ok(r.sent, `the run ended before it was stopped:\n${tail}`);
  assert.equal(r.code, 2, `a stopped run is no verdict:\n${tail}`);
  assert.equal((r.output.match(/^lomi-conformance: rules: /gm) ?? []).length, 1, `one verdict on the console:\n${tail}`);
  assert.doesNotMatch(r.output, /^lomi-conformance: (CONFORMANT|NOT CONFORMANT|partial run)/m, "no other verdict");
  const after = r.output
    .slice(r.output.indexOf("\nlomi-conformance: reports in ") + 1)
    .trim()
    .split("\n");
  assert.equal(after.length, 1, `nothing follows the verdict:\n${after.join("\n")}`);
  // Every report, the histories a run keeps as its evidence (verify) once a scenario has one, and no file left half-written beside them.
  assert.deepEqual(
    readdirSync(r.reports)
      .filter((f) => f !== "histories")
      .sort(),
    [...REPORT_FILES].sort(),
    "every report, and no file left half-written beside them",
  );

  const read = (f: string) => readFileSync(path.join(r.reports, f), "utf8");
  const report = JSON.parse(read("conformance.json")) as Report;
  assert.equal(report.verdict, "not-run");
  const stopped = new RegExp(`^NOT RUN: the run was stopped by ${signal} after (\\d+) of (\\d+) scenario\\(s\\)`);
  const [, finished, total] = stopped.exec(report.headline) ?? [];
  assert.ok(finished !== undefined, `the headline says how far the run got: ${report.headline}`);
  assert.equal(Number(total), report.scenarios.total, "it counts the whole selection");
  assert.match(report.headline, /; (no MUST rule was judged|on what finished, \d+ of \d+ MUST rules judged: \d+ pass)$/, "then what was judged: passes only");
  assert.equal(report.scenarios.fail, 0, `no scenario failed: ${JSON.stringify(report.scenarios)}`);
  assert.equal(report.scenarios.notRun, report.scenarios.total - Number(finished), "the scenarios it did not finish are not run");
  assert.deepEqual(
    report.rules.filter((x) => x.verdict === "fail").map((x) => `${x.id}: ${x.reason}`),
    [],
    "no rule failed",
  );
  const notRun = report.rules.filter((x) => x.verdict === "not-run");
  assert.ok(notRun.length > 0, "the rules it did not reach read not run");
  assert.ok(
    notRun.every((x) => x.scenarios.some((s) => s.verdict === "not-run" && s.reason === `the run was stopped by ${signal} before this scenario finished`)),
    "each with why",
  );

  assert.ok(read("conformance.md").startsWith(`## Lomi conformance: ${report.headline}\n`), "conformance.md opens with the headline");
  assert.doesNotMatch(read("conformance.md"), /❌/);
  const html = read("conformance.html");
  assert.match(html, /<div class="banner"[^>]*>✗ NOT RUN/);
  assert.doesNotMatch(html, /class="cell verdict-fail"/, "no failed rule in the grid");
  const junit = read("junit.xml");
  assert.match(junit, /<testsuites [^>]*failures="0" errors="1"/);
  assert.match(junit, /<error message="NOT RUN: [^"]*" type="not-run">/);
  assert.doesNotMatch(junit, /<failure /);
  assert.match(junit, new RegExp(`<skipped message="not run: the run was stopped by ${signal} before this scenario finished"`));
  assert.match(read("conformance.svg"), /<title>lomi conformance: not run \(lomi-conformance-kit [^)]*, evidence sha256:[0-9a-f]{64}\)<\/title>/);
  // Cucumber's own report and its message stream end as a run that did not succeed, saying why.
  assert.match(read("cucumber.html"), /<\/html>\s*$/);
  const last = JSON.parse(read("messages.ndjson").trim().split("\n").at(-1) ?? "{}") as { testRunFinished?: { success: boolean; message?: string } };
  assert.equal(last.testRunFinished?.success, false);
  assert.match(last.testRunFinished?.message ?? "", stopped);
  return report;
}

test("a stdio run sent SIGTERM after a few scenarios writes every report with what finished, the rest NOT RUN with the reason", async () => {
  // The third finished scenario's progress line: the run is under way, most of it still ahead.
  const r = await stopRun(["--broker-cmd", "node bin/lomi-broker.js", "--tags", TAGS], /^\[ ?3\/\d+\]/m, (child) => child.kill("SIGTERM"));
  const report = assertStoppedRun(r, "SIGTERM");
  assert.ok(report.scenarios.pass >= 3, `the scenarios that finished keep their verdicts: ${JSON.stringify(report.scenarios)}`);
  assert.match(report.headline, /; on what finished, \d+ of \d+ MUST rules judged: \d+ pass$/, "the headline says what was judged");
  assert.doesNotMatch(readFileSync(path.join(r.reports, "conformance.html"), "utf8"), /nothing was judged/);
  const junit = readFileSync(path.join(r.reports, "junit.xml"), "utf8");
  assert.ok((junit.match(/<testcase /g) ?? []).length > report.scenarios.total, "JUnit has a test case for every scenario, run or not, and the gate's");
});

// A slow broker (each reply 0-600 ms late) in front of the reference broker, run by two workers; it is
// stopped as soon as both have started their @slow store fills, as a CI job's timeout stops it (SIGTERM
// to the harness) and as Ctrl+C in a terminal does (SIGINT to the whole process group: the workers get it too).
const SLOW_BROKER = ["--broker-cmd", "node test/fixtures/brokers/slow-proxy.mjs 600", "--parallel", "2", "--tags", "@CAP-01 or @CAP-02 or @CAP-04"];
const BOTH_FILLS = /^note: .* is known to take long[^]*^note: .* is known to take long/m;
const stops: Array<[string, "SIGTERM" | "SIGINT", (child: ChildProcess & { pid: number }) => void]> = [
  ["SIGTERM to the harness", "SIGTERM", (child) => child.kill("SIGTERM")],
  ["SIGINT to its process group", "SIGINT", (child) => process.kill(-child.pid, "SIGINT")],
];
for (const [how, signal, stop] of stops) {
  test(`a --parallel 2 run of a slow correct broker stopped during its @slow fills by ${how} is NOT RUN in every report, no rule failed, exit 2, one verdict`, async () => {
    assertStoppedRun(await stopRun(SLOW_BROKER, BOTH_FILLS, stop), signal);
  });
}
