import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, test } from "node:test";
import { UrlAdapter } from "../../harness/adapters/url.js";
import { freePort } from "../../harness/free-port.js";
import { familyOf, loadRules } from "../../harness/rules.js";
import { MUTANTS } from "../../mutants/index.js";
import type { Mutant } from "../../mutants/mutant.js";
import { conformance, withHttpBroker, type CliRun } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

const rules = loadRules();
const rulesOf = (family: string) => rules.rules.filter((r) => familyOf(r.id) === family).map((r) => r.id);
/** The families the issue names; each of these, and any family docs/rules.json adds, needs a mutant. */
const FAMILIES = ["ENV", "SCH", "AUTH", "OP", "REV", "IDEM", "EPOCH", "INPUT", "CANCEL", "DUR", "CAP", "EVT"];

/** Most mutants run at a URL (one process for all their scenarios); one that needs what a running broker cannot give runs as a command. */
const atUrl = new UrlAdapter(new URL("http://127.0.0.1/mcp"), 1, 1).capabilities;
const asCommand = (m: Mutant) => m.needs !== undefined && !atUrl.has(m.needs);

/** Runs the suite on the scenarios of the rules the mutant breaks, within its family. */
async function judge(m: Mutant) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `lomi-mutant-${m.name}-`));
  const reports = path.join(dir, "reports");
  const tags = m.breaks.map((id) => `@${id}`).join(" or ");
  const common = ["--tags", tags, ...TIMEOUT_ARGS, "--reports", reports];
  let run: CliRun;
  if (asCommand(m)) {
    run = await conformance(["--broker-cmd", `node mutants/lomi-mutant.js ${m.name}`, ...common]);
  } else {
    const nativePort = await freePort();
    run = await withHttpBroker(["mutants/lomi-mutant.js", m.name], nativePort, dir, (url) => conformance(["--broker-url", url, "--native-port", String(nativePort), ...common]));
  }
  const read = (file: string) => readFileSync(path.join(reports, file), "utf8");
  type Failure = { step?: string; request?: { tool: string }; reply?: unknown };
  type Rules = Array<{ id: string; family: string; verdict: string; scenarios: Array<{ verdict: string; failure?: Failure }> }>;
  return { ...run, report: JSON.parse(read("conformance.json")) as { verdict: string; rules: Rules }, markdown: read("conformance.md") };
}

test("there are at least 12 mutants, one or more per rule family, each breaking rules of its own family", () => {
  assert.ok(MUTANTS.length >= 12, `${MUTANTS.length} mutants`);
  assert.equal(new Set(MUTANTS.map((m) => m.name)).size, MUTANTS.length, "names are unique");
  for (const family of new Set([...FAMILIES, ...Object.keys(rules.families)])) assert.ok(MUTANTS.some((m) => m.family === family), `no mutant breaks ${family}`);
  for (const m of MUTANTS) {
    for (const id of m.breaks) assert.ok(rulesOf(m.family).includes(id), `${m.name} claims to break ${id}, not a ${m.family} rule of docs/rules.json`);
    assert.ok(m.breaks.length > 0, `${m.name}: a mutant is run on the rules it breaks, so it must name them`);
  }
});

describe("every mutant is judged not conformant, with the family it breaks named", { concurrency: 2 }, () => {
  for (const m of MUTANTS) {
    it(`${m.name} (${m.family}, ${asCommand(m) ? "--broker-cmd" : "--broker-url"}): ${m.defect}`, async () => {
      const { code, output, report, markdown } = await judge(m);
      assert.equal(code, 1, `the run must fail (exit 1):\n${output.slice(-3000)}`);
      assert.equal(report.verdict, "not-conformant");
      const failed = report.rules.filter((r) => r.verdict === "fail");
      assert.ok(failed.some((r) => r.family === m.family), `no ${m.family} rule failed; failed: ${failed.map((r) => r.id).join(", ") || "none"}\n${output.slice(-3000)}`);
      // The failure explains itself: the step, the request sent and the reply received.
      const explained = failed.flatMap((r) => r.scenarios).filter((x) => x.verdict === "fail" && x.failure?.step && x.failure.request && x.failure.reply !== undefined);
      assert.ok(explained.length > 0, "a failed scenario carries its step, request and reply into conformance.json");
      assert.match(markdown, /Failed at: `[^`]+`[\s\S]*Request \(/);
      for (const id of m.breaks) {
        assert.equal(report.rules.find((r) => r.id === id)?.verdict, "fail", `${id} should fail`);
        assert.match(markdown, new RegExp(`\\| ${id} \\| [A-Z]+ \\| ❌ fail`), `conformance.md names ${id} as failed`);
      }
    });
  }
});
