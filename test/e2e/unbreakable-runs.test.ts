import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { REPORT_FILES } from "../../harness/report/write-reports.js";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { conformance } from "../support/runs.js";

/** "Whatever a broker answers, the run ends with verdicts and reports": brokers that answer what no step expects. */

type Report = { verdict: string; headline: string; scenarios: { total: number }; rules: Array<{ id: string; verdict: string }> };

async function run(command: string, tags: string) {
  const reports = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-unbreakable-")), "reports");
  const { code, output } = await conformance(["--broker-cmd", command, "--tags", tags, ...TIMEOUT_ARGS, "--reports", reports]);
  for (const f of REPORT_FILES) assert.ok(existsSync(path.join(reports, f)), `${f} is missing:\n${output.slice(-2000)}`);
  const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as Report;
  return { code, output, report, reports, junit: readFileSync(path.join(reports, "junit.xml"), "utf8") };
}

const RULES = ["SCH-06", "ENV-01", "IDEM-01"];

test("a broker that answers non-object arguments with a JSON-RPC invalid-params error, as the MCP SDKs do, gets every selected rule judged", async () => {
  const { code, output, report, junit } = await run("node test/fixtures/brokers/sdk-invalid-params.mjs", RULES.map((r) => `@${r}`).join(" or "));
  assert.ok(code === 0 || code === 1, `a verdict, not a harness error (exit ${code}):\n${output.slice(-3000)}`);
  assert.notEqual(report.verdict, "not-run", report.headline);
  for (const id of RULES) assert.match(report.rules.find((r) => r.id === id)?.verdict ?? "", /^(pass|fail)$/, `${id} is judged`);
  assert.equal(report.rules.find((r) => r.id === "IDEM-01")?.verdict, "pass", "the rules it keeps pass");
  assert.match(junit, /<testsuites /);
  // MCP's own schema makes such arguments invalid params: that answer passes SCH-06 (docs/decisions.md); another JSON-RPC error fails it.
  assert.equal(report.rules.find((r) => r.id === "SCH-06")?.verdict, "pass", output.slice(-3000));
  const internal = await run("node test/fixtures/brokers/sdk-invalid-params.mjs --code -32603", "@SCH-06");
  assert.equal(internal.report.rules.find((r) => r.id === "SCH-06")?.verdict, "fail", internal.output.slice(-3000));
  // The broker's message spans lines: the root cause quotes it whole, on one line, not cut at its first newline ("Internal error: [").
  const quoted =
    /answered the JSON-RPC error -32603 \("MCP error -32603: Internal error: \[ \{ "code": "invalid_type", "expected": "object", "path": \["arguments"\] \} \]"\); arguments that are not an object are refused with INVALID_ARGUMENT or the/;
  assert.match(internal.output.split("\n").find((l) => l.includes("CAUSE")) ?? "", quoted, internal.output.slice(-3000));
  const md = readFileSync(path.join(internal.reports, "conformance.md"), "utf8");
  assert.match(md.slice(md.indexOf("Likely root causes"), md.indexOf("| rule |")), quoted, "conformance.md's root cause");
});

test("a proxy that corrupts a seeded fifth of the replies (deep nesting, 200 KB strings, lone surrogates, wrong ids, errors for results) still ends in verdicts and every report", async () => {
  const { code, output, report } = await run("node test/fixtures/brokers/corrupting-proxy.mjs 7 5", "@IDEM-01 or @OP-01 or @ENV-02 or @EVT-01");
  assert.equal(code, 1, `the corrupted replies fail rules, and nothing else happens (exit ${code}):\n${output.slice(-3000)}`);
  assert.equal(report.verdict, "not-conformant");
  assert.ok(report.scenarios.total > 5, "every selected scenario ran");
  assert.ok(
    report.rules.some((r) => r.verdict === "fail"),
    "the corruption is caught",
  );
});
