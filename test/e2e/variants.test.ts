import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, test } from "node:test";
import { REFERENCE_POLICY } from "../../reference-broker/broker-policy.js";
import { ALL_VARIANTS, ON_THE_WHOLE_SUITE, VARIANTS } from "../../variants/index.js";
import type { Variant } from "../../variants/variant.js";
import { conformance, judgedRuns, type CliRun } from "../support/runs.js";

type Report = {
  verdict: string;
  headline: string;
  rules: Array<{ id: string; verdict: string; scenarios: Array<{ name: string; verdict: string; failure?: { step?: string; message: string } }> }>;
};

/** What judged the variant, rule by rule: the rule, the scenario, the step and what it found. */
function judgedBy(report: Report): string {
  return report.rules
    .filter((r) => r.verdict === "fail")
    .flatMap((r) =>
      r.scenarios
        .filter((s) => s.verdict === "fail")
        .map((s) => `${r.id} · ${s.name}\n  at: ${s.failure?.step}\n  ${s.failure?.message.split("\n").slice(0, 4).join("\n  ")}`),
    )
    .join("\n");
}

function assertConformant(v: Variant, run: CliRun, reports: string, profile: RegExp): void {
  const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as Report;
  assert.equal(run.code, 0, `${v.name} must be judged conformant; it was judged by:\n${judgedBy(report) || run.output.slice(-3000)}`);
  assert.equal(report.verdict, "conformant");
  assert.match(report.headline, profile);
}

// A loaded machine may start a broker slowly; the variants are judged on what they answer, not on speed.
const TIMEOUT = ["--timeout-ms", "30000"];

test("every variant differs from the reference broker in a choice, says why that is legal, and names the scenarios it touches", () => {
  assert.ok(VARIANTS.length >= 6);
  assert.equal(new Set(VARIANTS.map((v) => v.name)).size, VARIANTS.length);
  for (const v of VARIANTS) {
    const changed = Object.entries(v.policy).filter(
      ([k, value]) => JSON.stringify(value) !== JSON.stringify(REFERENCE_POLICY[k as keyof typeof REFERENCE_POLICY]),
    );
    assert.ok(changed.length > 0, `${v.name} changes nothing`);
    assert.ok(v.touches.startsWith("@"), `${v.name} names no scenarios`);
    assert.ok(v.leftOpenBy.length > 20, `${v.name} does not say why it is legal`);
  }
});

// Over stdio: each variant whose scenarios need fault hooks or crashes, which a URL cannot give, and
// each left out of the combined variant; the others are judged at a URL by the combined variant's
// whole-suite run (test/e2e/url-broker.test.ts) and in-process below.
const overStdio = VARIANTS.filter((v) => v.faults || !ON_THE_WHOLE_SUITE.includes(v));

describe("every variant is judged conformant over stdio or at a URL, on the scenarios its difference touches", { concurrency: 2 }, () => {
  it("each variant is judged through an adapter users run: over stdio here, or at a URL within the combined variant", () => {
    assert.deepEqual(
      VARIANTS.filter((v) => !overStdio.includes(v) && !ON_THE_WHOLE_SUITE.includes(v)),
      [],
    );
  });
  for (const v of overStdio) {
    it(`${v.name}: ${v.difference}`, async () => {
      const reports = path.join(mkdtempSync(path.join(os.tmpdir(), `lomi-variant-${v.name}-`)), "reports");
      const faults = v.faults ? ["--broker-faults"] : [];
      const run = await conformance([
        "--broker-cmd",
        `node variants/lomi-variant.js ${v.name}`,
        ...faults,
        "--tags",
        v.touches,
        "--reports",
        reports,
        ...TIMEOUT,
      ]);
      assertConformant(v, run, reports, v.faults ? /^CONFORMANT over stdio:/ : /^CONFORMANT over stdio without fault hooks:/);
    });
  }
});

/**
 * A variant that settles in its own time waits in real time in most scenarios: its run waits rather
 * than works, so workers share the waits. It also runs the @slow store fills, since its settlements
 * are what the fill's reconciliation must not count on (CAP-04); the others leave them out for time.
 */
const settlesLate = (v: Variant) => (v.policy.settleAfterMs?.[1] ?? 0) > 0;

describe("every variant is judged conformant in-process too, on the whole suite, with the oracles judging every scenario's history", { concurrency: 2 }, () => {
  // Two judging processes make the seven runs: the harness loads twice, not seven times.
  const judged = judgedRuns(2);
  for (const v of ALL_VARIANTS) {
    it(`${v.name} (--variant)`, async () => {
      const reports = path.join(mkdtempSync(path.join(os.tmpdir(), `lomi-variant-${v.name}-in-process-`)), "reports");
      const scope = settlesLate(v) ? ["--parallel", "4"] : ["--tags", "not @slow"];
      const run = await judged(["--variant", v.name, ...scope, "--reports", reports, ...TIMEOUT]);
      assertConformant(v, run, reports, /^CONFORMANT over in-process:/);
    });
  }
});

// All variants combined run the whole suite at a URL in test/e2e/url-broker.test.ts.
