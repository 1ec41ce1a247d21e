import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, test } from "node:test";
import { UrlAdapter } from "../../harness/adapters/url.js";
import { freePort } from "../../harness/adapters/free-port.js";
import { familyOf, loadRules } from "../../harness/rules.js";
import { MUTANTS } from "../../mutants/index.js";
import type { Mutant } from "../../mutants/mutant.js";
import { conformance, judgedRuns, withHttpBroker, type CliRun } from "../support/runs.js";
import { TIMEOUT_ARGS } from "../support/budget.js";

const rules = loadRules();
const rulesOf = (family: string) => rules.rules.filter((r) => familyOf(r.id) === family).map((r) => r.id);
/** The families the issue names; each of these, and any family docs/rules.json adds, needs a mutant. */
const FAMILIES = ["ENV", "SCH", "AUTH", "OP", "REV", "IDEM", "EPOCH", "INPUT", "CANCEL", "DUR", "CAP", "EVT"];

/** Most mutants run at a URL (one process for all their scenarios); one that needs what a running broker cannot give runs as a command. */
const atUrl = new UrlAdapter(new URL("http://127.0.0.1/mcp"), 1, 1).capabilities;
const asCommand = (m: Mutant) => m.needs !== undefined && !atUrl.has(m.needs);

/** The scenarios that show a mutant's defect: its own choice, or those of the rules it breaks. */
const tagsOf = (m: Mutant) => m.shownBy ?? m.breaks.map((id) => `@${id}`).join(" or ");

/** Runs the suite on the scenarios that show the mutant's defect. */
async function judge(m: Mutant) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `lomi-mutant-${m.name}-`));
  const reports = path.join(dir, "reports");
  const tags = tagsOf(m);
  const common = ["--tags", tags, ...TIMEOUT_ARGS, "--reports", reports];
  let run: CliRun;
  if (asCommand(m)) {
    run = await conformance(["--broker-cmd", `node mutants/lomi-mutant.js ${m.name}`, ...common]);
  } else {
    const nativePort = await freePort();
    run = await withHttpBroker(["mutants/lomi-mutant.js", m.name], nativePort, dir, (url) =>
      conformance(["--broker-url", url, "--native-port", String(nativePort), ...common]),
    );
  }
  const read = (file: string) => readFileSync(path.join(reports, file), "utf8");
  type Failure = { step?: string; message?: string; request?: { tool: string }; reply?: unknown; brokerLog?: unknown };
  type Rules = Array<{ id: string; family: string; verdict: string; scenarios: Array<{ verdict: string; failure?: Failure }> }>;
  return { ...run, report: JSON.parse(read("conformance.json")) as { verdict: string; rules: Rules }, markdown: read("conformance.md") };
}

test("there are at least 12 mutants, one or more per rule family, each breaking rules of its own family among those it declares", () => {
  assert.ok(MUTANTS.length >= 12, `${MUTANTS.length} mutants`);
  assert.equal(new Set(MUTANTS.map((m) => m.name)).size, MUTANTS.length, "names are unique");
  for (const family of new Set([...FAMILIES, ...Object.keys(rules.families)]))
    assert.ok(
      MUTANTS.some((m) => m.family === family),
      `no mutant breaks ${family}`,
    );
  for (const m of MUTANTS) {
    for (const id of m.breaks)
      assert.ok(
        rules.rules.some((r) => r.id === id),
        `${m.name} claims to break ${id}, not a rule of docs/rules.json`,
      );
    assert.ok(
      m.breaks.some((id) => rulesOf(m.family).includes(id)),
      `${m.name} declares no ${m.family} rule`,
    );
    assert.ok(m.breaks.length > 0, `${m.name}: a mutant is run on the rules it breaks, so it must name them`);
  }
});

/**
 * Every mutant is judged in-process on the whole suite, held to its declaration
 * (test/e2e/blame-precision.test.ts); these run as a broker at a URL (or as a command when they need
 * a process), as teams run theirs, to show that adapter catches and blames them the same way: one
 * mutant of each kind of part (a reply rewritten, a store replaced, an oracle's catch) and every
 * mutant that needs a process.
 */
const THROUGH_ADAPTERS = new Set(["env-errors-without-iserror", "idem-fresh-operation-per-retry", "evt-feed-spans-workspaces"]);

describe("mutants run as a broker at a URL or as a command are judged not conformant, blamed on what they declare", { concurrency: 2 }, () => {
  for (const m of MUTANTS.filter((x) => THROUGH_ADAPTERS.has(x.name) || asCommand(x))) {
    it(`${m.name} (${m.family}, ${asCommand(m) ? "--broker-cmd" : "--broker-url"}): ${m.defect}`, async () => {
      const { code, output, report, markdown } = await judge(m);
      assert.equal(code, 1, `the run must fail (exit 1):\n${output.slice(-3000)}`);
      assert.equal(report.verdict, "not-conformant");
      const failed = report.rules.filter((r) => r.verdict === "fail");
      assert.ok(
        failed.some((r) => r.family === m.family),
        `no ${m.family} rule failed; failed: ${failed.map((r) => r.id).join(", ") || "none"}\n${output.slice(-3000)}`,
      );
      // The failure explains itself: the step, the request sent and the reply received; a broker that
      // never answered (its store refused at start) by the step and the broker's own words instead.
      const explained = failed
        .flatMap((r) => r.scenarios)
        .filter(
          (x) =>
            x.verdict === "fail" &&
            x.failure?.step &&
            ((x.failure.request && x.failure.reply !== undefined) ||
              (x.failure.brokerLog !== undefined && /did not complete MCP initialize[\s\S]*the broker process exited/.test(x.failure.message ?? ""))),
        );
      assert.ok(explained.length > 0, "a failed scenario carries its step, request and reply (or, at start, the broker's log) into conformance.json");
      assert.match(markdown, /Failed at: `[^`]+`[\s\S]*(Calls \(|Request \(|the broker process exited)/);
      // Blamed precisely through this adapter too: some rule it declares fails, none it does not.
      assert.deepEqual(
        failed.map((r) => r.id).filter((id) => !m.breaks.includes(id)),
        [],
        `${m.name} declares ${m.breaks.join(", ")}`,
      );
      for (const r of failed) assert.match(markdown, new RegExp(`\\| ${r.id} \\| [A-Z]+ \\| ❌ fail`), `conformance.md names ${r.id} as failed`);
    });
  }
});

type Judged = {
  verdict: string;
  rules: Array<{ id: string; verdict: string; scenarios: Array<{ name: string; verdict: string; failure?: { oracles?: Array<{ id: string }> } }> }>;
};

type InProcessRun = { code: number | null; output: string; report: Judged };
const inProcessRuns = new Map<string, Promise<InProcessRun>>();
// Two judging processes make the in-process runs: the harness loads twice, not once a run.
const judged = judgedRuns(2);

/** The mutant in-process, the scenarios that show it, with the oracles on or off; each run once, shared by the tests below. */
function inProcess(m: Mutant, oracles: "on" | "off"): Promise<InProcessRun> {
  const key = `${m.name} ${oracles}`;
  const run =
    inProcessRuns.get(key) ??
    (async () => {
      const reports = path.join(mkdtempSync(path.join(os.tmpdir(), `lomi-mutant-${m.name}-${oracles}-`)), "reports");
      const done = await judged(["--mutant", m.name, "--oracles", oracles, "--tags", tagsOf(m), ...TIMEOUT_ARGS, "--reports", reports]);
      return { ...done, report: JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as Judged };
    })();
  inProcessRuns.set(key, run);
  return run;
}

const failedScenarios = (r: Judged) =>
  new Set(
    r.rules
      .flatMap((x) => x.scenarios)
      .filter((x) => x.verdict === "fail")
      .map((x) => x.name),
  );

// In-process (--mutant) the mutants made for an oracle: the others are the same parts, judged above
// through the adapters users run, with the oracles on there too.
describe("a mutant made for an oracle is not conformant in-process, caught by that oracle where the steps alone pass", { concurrency: 2 }, () => {
  for (const m of MUTANTS.filter((x) => x.oracle !== undefined)) {
    it(`${m.name}: ${m.oracle}${m.stepsBlind ? ", the steps alone blind to it" : ""}`, async () => {
      const [on, off] = await Promise.all([inProcess(m, "on"), inProcess(m, "off")]);
      assert.equal(on.code, 1, `the run must fail (exit 1):\n${on.output.slice(-3000)}`);
      assert.equal(on.report.verdict, "not-conformant");
      assert.ok(
        on.report.rules.some((r) => r.verdict === "fail" && m.breaks.includes(r.id)),
        `none of ${m.breaks.join(", ")} failed`,
      );
      if (m.stepsBlind) assert.equal(off.code, 0, `with the oracles off the steps alone must pass it:\n${off.output.slice(-2000)}`);
      const byOracle = on.report.rules
        .flatMap((r) => r.scenarios)
        .filter((x) => x.verdict === "fail" && (x.failure?.oracles ?? []).some((o) => o.id === m.oracle))
        .map((x) => x.name);
      const onlyThere = byOracle.filter((name) => !failedScenarios(off.report).has(name));
      assert.ok(onlyThere.length > 0, `${m.oracle} must fail a scenario the steps pass; it failed ${byOracle.join(", ") || "none"}\n${on.output.slice(-2000)}`);
      // The oracle it was made for is the one that sees it there, no other.
      for (const x of on.report.rules.flatMap((r) => r.scenarios).filter((s) => s.verdict === "fail" && onlyThere.includes(s.name))) {
        assert.deepEqual([...new Set((x.failure?.oracles ?? []).map((o) => o.id))], [m.oracle], x.name);
      }
    });
  }
});
