import assert from "node:assert/strict";
import { test } from "node:test";
import { InProcessAdapter } from "../../harness/adapters/in-process.js";
import { explore, type ExploreOptions } from "../../harness/explore/explore.js";
import { formatHistory } from "../../harness/history/format.js";
import { MUTANTS } from "../../mutants/index.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { exploreCommand } from "../../harness/explore/campaign.js";
import { readRegressions } from "../../harness/explore/reports.js";
import { ORACLES } from "../../harness/oracles/index.js";
import { HarnessError } from "../../harness/harness-error.js";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { kitPath } from "../../protocol/kit-root.js";

const options = (seed: number, runs: number, steps: number): ExploreOptions => ({
  seed,
  runs,
  steps,
  timeBudgetS: 600,
  run: { adapter: "in-process", seed: 1, timeoutMs: 10_000 },
  world: readWorldFile(),
});

async function histories(seed: number): Promise<string[]> {
  const all: string[] = [];
  const result = await explore({ ...options(seed, 3, 30), onHistory: (records) => all.push(formatHistory(records)) });
  assert.equal(result.violation, undefined, "the reference broker breaks no invariant");
  return all;
}

test("the same seed and code give the same histories, byte for byte; another seed gives others", async () => {
  const first = await histories(11);
  const again = await histories(11);
  assert.equal(first.length, 3);
  assert.deepEqual(again, first);
  assert.ok(
    first.some((h) => h.split("\n").length > 10),
    "the runs did something",
  );
  assert.notDeepEqual(await histories(12), first);
});

test("a short explore of the reference broker injects faults of several kinds and finds no violation", async () => {
  const result = await explore(options(5, 8, 40));
  assert.equal(result.violation, undefined, JSON.stringify(result.violation?.invariants));
  assert.equal(result.runs, 8);
  assert.ok(result.steps > 40, `${result.steps} steps`);
  const kinds = Object.entries(result.faults)
    .filter(([, n]) => n > 0)
    .map(([k]) => k);
  assert.ok(kinds.length >= 5, `faults of ${kinds.join(", ")}`);
});

test("a violation is shrunk, and its replay gives the same case and history again", async () => {
  const mutant = MUTANTS.find((m) => m.name === "cancel-settled-reported-cancelled")!;
  const adapter = () => new InProcessAdapter(10_000, mutant.parts);
  const found = await explore({ ...options(1, 100, 60), adapter });
  const v = found.violation;
  assert.ok(v, "the mutant is found");
  // Its own oracle; another may see the same case too (a cancelled browser open is not what Lomi settled either).
  assert.ok(
    v.invariants.some((f) => f.id === "legal-transitions"),
    v.invariants.map((f) => f.id).join(", "),
  );
  assert.ok(v.steps.length <= 4, `shrunk to ${v.steps.length} steps: ${v.steps.join("; ")}`);
  const replayed = await explore({ ...options(1, 100, 60), adapter, replay: { path: v.path, replayPath: v.replayPath } });
  assert.equal(replayed.runs, 1);
  assert.deepEqual(replayed.violation?.steps, v.steps);
  assert.equal(formatHistory(replayed.violation!.history), formatHistory(v.history));
  // A path this campaign does not generate (another seed's, another version's) is refused by name, not by fast-check's stack.
  await assert.rejects(
    explore({ ...options(1, 100, 60), adapter, replay: { path: `${v.path.split(":")[0]}:999:0`, replayPath: v.replayPath } }),
    (e: unknown) => {
      assert.ok(e instanceof HarnessError && e.kind === "config", String(e));
      assert.match(e.message, /^--replay \d+:999:0 is not a case of this campaign \(seed 1, 60 steps at most\)/);
      return true;
    },
  );
});

/**
 * Replays fixtures/explore-seeds.json's case of the broker that, restarted, dispatches its queued work
 * under request keys of its own: on that mutant, or on the reference broker.
 */
async function replayResumedCase(on: "mutant" | "reference") {
  const found = readRegressions(kitPath("fixtures/explore-seeds.json")).find((c) => c.mutant === "dur-resumed-after-restart");
  assert.ok(found, "the regression list holds the case");
  const reports = mkdtempSync(path.join(os.tmpdir(), "lomi-explore-replay-"));
  let out = "";
  const code = await exploreCommand({
    seed: found.seed,
    runs: 1,
    steps: found.steps,
    timeBudgetS: 600,
    parameters: { adapter: "in-process", ...(on === "mutant" ? { mutant: found.mutant } : {}), seed: found.seed, timeoutMs: 10_000 },
    brokerName: on === "mutant" ? `mutant ${found.mutant}` : "reference broker (in-process)",
    replayArgs: [],
    replay: { path: found.path, replayPath: found.replayPath },
    reports,
    regressions: undefined,
    out: (t) => (out += t),
  });
  const json = JSON.parse(readFileSync(path.join(reports, "explore.json"), "utf8")) as { replay?: unknown; violation?: unknown };
  return { found, code, out, md: readFileSync(path.join(reports, "explore.md"), "utf8"), json };
}

test("explore heads a finding with the rules it breaks, never its oracle's whole list: a dispatch under a key no agent sent is DUR-01's", async () => {
  const { found, code, out, md, json } = await replayResumedCase("mutant");
  assert.equal(code, 1, out);
  const oracle = ORACLES.find((o) => o.id === "effects-requested")!;
  assert.ok(oracle.rules.length > 10, "the oracle can judge many rules: the point of the test");
  const violation = out.slice(out.indexOf("VIOLATION"), out.indexOf("shrunk to"));
  assert.match(
    violation,
    /^VIOLATION of effects-requested \(DUR-01\)\n  DUR-01 \(effects-requested\): Lomi did work no agent asked for: .*requestKey \S+\.resumed/,
  );
  const section = md.slice(md.indexOf("## Violation"), md.indexOf("### Shrunk"));
  assert.match(section, /^- DUR-01 \(\*\*effects-requested\*\*\): Lomi did work no agent asked for/m);
  for (const text of [violation, section])
    assert.deepEqual([...new Set(text.match(/\b[A-Z]+-\d{2}\b/g))], ["DUR-01"], `only the rule the finding breaks: ${text}`);
  assert.deepEqual(json.replay, { path: found.path, replayPath: found.replayPath, reproduced: true });
});

test("a replay that shows no violation says its finding is not reproduced, never a campaign's NO VIOLATION (exit 0 as before)", async () => {
  // A mutant's case pasted against the reference broker: it runs, and the finding is not there.
  const { found, code, out, md, json } = await replayResumedCase("reference");
  assert.equal(code, 0, out);
  const said = `NOT REPRODUCED: the replayed case (--replay ${found.path} --replay-path ${found.replayPath}) showed no violation here, so the finding it came from is not reproduced.`;
  assert.ok(out.includes(`\n${said} `), out);
  assert.doesNotMatch(out, /NO VIOLATION/);
  assert.ok(md.includes(said), md);
  assert.doesNotMatch(md, /\*\*No violation\*\*/);
  assert.deepEqual(json.replay, { path: found.path, replayPath: found.replayPath, reproduced: false });
  assert.equal(json.violation, undefined);
});
