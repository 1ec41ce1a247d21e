import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { freePort } from "../../harness/adapters/free-port.js";
import { REPORT_FILES } from "../../harness/report/write-reports.js";
import { stepVocabulary } from "../../harness/authoring/step-vocabulary.js";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { COMMANDS } from "../../harness/commands/table.js";

/** Runs a bin from a scratch directory, as a user does from their repository: a refused run leaves its reports there. */
const run = (bin: string, ...args: string[]) => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), "lomi-cli-"));
  return {
    cwd,
    ...spawnSync(process.execPath, [kitPath(`bin/${bin}.js`), ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, LOMI_NATIVE_URL: "", LOMI_STORE_PATH: "" },
    }),
  };
};

// Each bin's --help: test/unit/bin-help.test.ts.
for (const bin of ["lomi-broker", "lomi-sim", "lomi-conformance"]) {
  test(`${bin} refuses an unknown option with exit 2 and a pointer to --help`, () => {
    const r = run(bin, "--no-such-option");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--help/);
  });
}

test("--help names --shard, --durations and --write-durations; merge --help explains merging shards and explore parts", () => {
  const help = run("lomi-conformance", "--help");
  for (const option of ["--shard K/N", "--durations FILE", "--write-durations FILE", "lomi-conformance merge DIR…"])
    assert.ok(help.stdout.includes(option), option);
  const reports = /^Reports: (.*)\.$/m.exec(help.stdout)?.[1]?.split(", ") ?? [];
  assert.deepEqual([...reports].sort(), [...REPORT_FILES].sort(), "--help's Reports: line names every report a run writes");
  const merge = run("lomi-conformance", "merge", "--help");
  assert.equal(merge.status, 0, merge.stderr);
  assert.match(merge.stdout, /^lomi-conformance merge — /);
  for (const words of ["shard.json", "explore.json", "--reports OUT", "missing, given twice, or of another run"])
    assert.ok(merge.stdout.includes(words), words);
});

test("each command's --help is its own; an option of another command is refused, exit 2, with the command's own options", () => {
  for (const c of COMMANDS) {
    const help = run("lomi-conformance", c.name!, "--help");
    assert.equal(help.status, 0, help.stderr);
    assert.ok(help.stdout.startsWith(`lomi-conformance ${c.name} — ${c.summary}\n`), help.stdout.slice(0, 200));
    assert.doesNotMatch(help.stdout, /^Commands/m, "not the main help");
  }
  const steps = run("lomi-conformance", "steps", "--retries", "3", "--broker-cmd", "x");
  assert.equal(steps.status, 2);
  assert.equal(
    steps.stderr,
    "lomi-conformance steps: --retries is not an option of steps (it goes with a conformance run); its options are --help\nRun lomi-conformance steps --help for usage.\n",
  );
  assert.equal(existsSync(path.join(steps.cwd, "reports")), false, "a command's refusal is no run: it writes no reports");
});

test("a conformance run refused for its options still writes every report, saying NOT RUN and why, where --reports says", () => {
  const typo = run("lomi-conformance", "--brokr-cmd", "node broker.mjs", "--reports", "out");
  assert.equal(typo.status, 2);
  const json = JSON.parse(readFileSync(path.join(typo.cwd, "out", "conformance.json"), "utf8")) as { verdict: string; headline: string };
  assert.equal(json.verdict, "not-run");
  assert.match(json.headline, /^NOT RUN: unknown option --brokr-cmd; did you mean --broker-cmd\?/);
  for (const file of ["conformance.md", "conformance.html", "conformance.svg", "junit.xml"]) assert.ok(existsSync(path.join(typo.cwd, "out", file)), file);
  const nothing = run("lomi-conformance", "--tags", "@OP-99", "--reports=out");
  assert.equal(nothing.status, 2);
  assert.match(readFileSync(path.join(nothing.cwd, "out", "conformance.md"), "utf8"), /^## Lomi conformance: NOT RUN: --tags "@OP-99" selects no scenario/);
  // Another command's typo is not a conformance run: it writes no reports.
  const steps = run("lomi-conformance", "steps", "--bogus");
  assert.equal(steps.status, 2);
  assert.equal(existsSync(path.join(steps.cwd, "reports")), false);
});

test("a --broker-cmd with shell syntax is refused before any broker starts, with the sh -c form, and the reports say NOT RUN", () => {
  const r = run("lomi-conformance", "--broker-cmd", "node broker.mjs > log.txt", "--reports", "out");
  assert.equal(r.status, 2);
  assert.match(
    r.stderr,
    /--broker-cmd runs its command without a shell, so ">" \(a redirection in a shell\) would reach the program as an argument.*--broker-cmd "sh -c 'node broker\.mjs > log\.txt'"/,
  );
  assert.match(
    JSON.parse(readFileSync(path.join(r.cwd, "out", "conformance.json"), "utf8")).headline,
    /^NOT RUN: --broker-cmd runs its command without a shell/,
  );
  assert.deepEqual(readdirSync(r.cwd), ["out"], "nothing started, nothing written but the reports");
});

test("lomi-broker without a bridge says what to pass", () => {
  const r = run("lomi-broker", "--store", "/tmp/x.sqlite");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--native-url URL, set LOMI_NATIVE_URL, or use --simulate/);
});

test("lomi-sim with a bad world file names the file", () => {
  const r = run("lomi-sim", "serve", "--world", "/nonexistent/world.json");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /\/nonexistent\/world\.json/);
});

test("lomi-conformance refuses a bad level", () => {
  const r = run("lomi-conformance", "--level", "sometimes");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--level must be must, should or may/);
});

test("lomi-conformance names one broker at a time and says which options go together", () => {
  const two = run("lomi-conformance", "--broker-cmd", "x", "--broker-url", "http://127.0.0.1:1/mcp");
  assert.equal(two.status, 2);
  assert.match(two.stderr, /name one broker, not --broker-cmd and --broker-url/);
  const port = run("lomi-conformance", "--native-port", "4545");
  assert.equal(port.status, 2);
  assert.match(port.stderr, /--native-port goes with --broker-url/);
  const parallel = run("lomi-conformance", "--broker-url", "http://127.0.0.1:1/mcp", "--parallel", "2");
  assert.equal(parallel.status, 2);
  assert.match(parallel.stderr, /one scenario at a time/);
  const faults = run("lomi-conformance", "--broker-url", "http://127.0.0.1:1/mcp", "--broker-faults");
  assert.equal(faults.status, 2);
  assert.match(faults.stderr, /--broker-faults goes with --broker-cmd or --broker-image/);
  // A misspelt command gets the one meant, and, as a misspelt option does, reports saying why nothing ran.
  for (const [typo, meant] of [
    ["stepz", "steps"],
    ["lnit", "lint"],
    ["covrage", "coverage"],
  ]) {
    const command = run("lomi-conformance", typo!, "--reports", "out");
    assert.equal(command.status, 2);
    assert.match(
      command.stderr,
      new RegExp(
        `unknown command ${typo}; did you mean ${meant}\\? \\(the commands are steps, explore, check, record, catalogue, coverage, teeth, lint, merge, verify, compare; a conformance run takes none, or scenarios as features/FILE.feature:LINE\\)`,
      ),
    );
    assert.match(
      JSON.parse(readFileSync(path.join(command.cwd, "out", "conformance.json"), "utf8")).headline,
      new RegExp(`^NOT RUN: unknown command ${typo}; did you mean ${meant}\\?`),
    );
  }
  assert.doesNotMatch(run("lomi-conformance", "frobnicate").stderr, /did you mean/);
  assert.match(run("lomi-conformance", "steps", "all").stderr, /steps takes no word after it, not all/);
  // A mutant or variant that does not exist is refused before any scenario, not by each one's set-up.
  for (const option of ["--mutant", "--variant"]) {
    const unknown = run("lomi-conformance", option, "nope");
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, new RegExp(`${option} names one of: `));
    assert.doesNotMatch(unknown.stdout, /^\[1\//m, "no scenario ran");
  }
});

test("lomi-conformance --broker-url with nothing listening stops with exit 2 and says what to start", async () => {
  const nativePort = await freePort();
  const r = run("lomi-conformance", "--broker-url", "http://127.0.0.1:9/mcp", "--native-port", String(nativePort), ...TIMEOUT_ARGS);
  assert.equal(r.status, 2);
  assert.match(
    r.stderr,
    new RegExp(`no MCP server answers at http://127\\.0\\.0\\.1:9/mcp .*Start your broker first, with LOMI_NATIVE_URL=http://127\\.0\\.0\\.1:${nativePort}`),
  );
});

test("lomi-conformance steps prints every step with its example", async () => {
  const vocabulary = await stepVocabulary();
  const r = run("lomi-conformance", "steps");
  assert.equal(r.status, 0, r.stderr);
  for (const s of vocabulary.steps) assert.ok(r.stdout.includes(`e.g. ${s.keyword} ${s.example!.text}`), s.pattern);
});

test("lomi-conformance suggests the option a misspelt one meant", () => {
  const r = run("lomi-conformance", "--tagz", "@OP-05");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --tagz; did you mean --tags\?/);
});

test("lomi-conformance refuses a malformed tag expression with cucumber's message, and one that selects nothing, before running", () => {
  const bad = run("lomi-conformance", "--tags", "@OP-05 and", "--reports", "/tmp/lomi-cli-bad-tags");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--tags: Tag expression "@OP-05 and" could not be parsed because of syntax error: Expected operand/);
  const none = run("lomi-conformance", "--tags", "@NOPE-99", "--reports", "/tmp/lomi-cli-no-tags");
  assert.equal(none.status, 2);
  assert.match(none.stderr, /--tags "@NOPE-99" selects no scenario/);
  assert.doesNotMatch(none.stdout, /scenarios? \(/, "nothing ran");
  const bare = run("lomi-conformance", "--tags", "IDEM-01", "--reports", "/tmp/lomi-cli-no-tags");
  assert.equal(bare.status, 2);
  assert.match(bare.stderr, /--tags "IDEM-01" selects no scenario; did you mean --tags "@IDEM-01"\?/);
});

test("lomi-conformance catalogue prints the tool catalogue, and --json its JSON Schemas", async () => {
  const { CATALOGUE } = await import("../../protocol/catalogue.js");
  const md = run("lomi-conformance", "catalogue");
  assert.equal(md.status, 0, md.stderr);
  for (const c of CATALOGUE) assert.ok(md.stdout.includes(`### ${c.name}`), c.name);
  const json = run("lomi-conformance", "catalogue", "--json");
  assert.equal(json.status, 0, json.stderr);
  const tools = (JSON.parse(json.stdout) as { tools: { name: string; outputSchema: unknown }[] }).tools;
  assert.deepEqual(
    tools.map((t) => t.name),
    CATALOGUE.map((c) => c.name),
  );
  assert.ok(tools.every((t) => typeof t.outputSchema === "object"));
  const stray = run("lomi-conformance", "--json");
  assert.equal(stray.status, 2);
  assert.match(stray.stderr, /--json is not an option of a conformance run \(it goes with catalogue or coverage\)/);
});

test("--histories writes each scenario's history, which check judges again on its own", () => {
  const r = run("lomi-conformance", "--tags", "@OP-05", "--histories", "histories", ...TIMEOUT_ARGS);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const dir = path.join(r.cwd, "histories");
  const files = readdirSync(dir);
  assert.ok(files.length > 0 && files.every((f) => f.endsWith(".jsonl")), files.join(", "));
  const checked = run("lomi-conformance", "check", path.join(dir, files[0]!));
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  assert.match(readFileSync(path.join(dir, files[0]!), "utf8"), /"type":"call"/);
});

test("lomi-conformance lint passes the kit's suite and names a draft's mistakes with file:line, exit 2", () => {
  const clean = run("lomi-conformance", "lint");
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /lomi-conformance lint: no problems/);
  assert.equal(clean.stderr, "", "cucumber warns of nothing (a requireModule without require paths once warned at every lint and run)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-lint-draft-"));
  writeFileSync(
    path.join(dir, "draft.feature"),
    'Feature: draft\n  @EVT-40\n  Scenario: s\n    Given the agent is conected to workspace "ws-alpha"\n\n  @EVT-01\n  Scenario: t\n    Given the agent is connected to workspace "ws-beta"\n    Then Lomi holds nothing at "notes.md" in project "beta"\n',
  );
  const env = { ...process.env, LOMI_FEATURES_DIR: dir };
  const draft = spawnSync(process.execPath, [kitPath("bin/lomi-conformance.js"), "lint"], { cwd: dir, encoding: "utf8", env });
  assert.equal(draft.status, 2, draft.stdout + draft.stderr);
  assert.match(draft.stdout, /draft\.feature:2: @EVT-40 is not a rule of docs\/rules\.json; did you mean @EVT-0\d\?/);
  assert.match(draft.stdout, /draft\.feature:4: undefined step .*did you mean/);
  assert.match(draft.stdout, /draft\.feature:9: project "beta" is not in the world/);
  assert.match(draft.stdout, /lomi-conformance lint: 3 problem\(s\)/);
  // A run lints first: the scenario it selects is sound, the others' mistakes still stop it before any broker is judged.
  const selected = spawnSync(process.execPath, [kitPath("bin/lomi-conformance.js"), "--tags", "@EVT-01", "--reports", path.join(dir, "reports")], {
    cwd: dir,
    encoding: "utf8",
    env,
  });
  assert.equal(selected.status, 2, selected.stdout + selected.stderr);
  assert.match(selected.stderr, /the suite has 3 authoring problem\(s\) \(lomi-conformance lint\)/);
  assert.doesNotMatch(selected.stdout, /\[ *1\/1\]/);
  assert.match(readFileSync(path.join(dir, "reports", "conformance.md"), "utf8"), /NOT RUN: the suite has 3 authoring problem/);
});

test("lomi-conformance teeth runs the reference broker, then each mutant named, and says which mutant breaks which rule", () => {
  const reports = mkdtempSync(path.join(os.tmpdir(), "lomi-teeth-"));
  const shown = spawnSync(
    process.execPath,
    [kitPath("bin/lomi-conformance.js"), "teeth", "--tags", "@EVT-04", "--mutant", "evt-feed-spans-workspaces,untyped-not-found", "--reports", reports],
    { encoding: "utf8" },
  );
  assert.equal(shown.status, 0, shown.stdout + shown.stderr);
  assert.match(shown.stdout, /teeth: the reference broker passes 1 rule\(s\) of the selection/);
  assert.match(shown.stdout, /evt-feed-spans-workspaces: breaks EVT-04/);
  assert.match(shown.stdout, /EVT-04 +evt-feed-spans-workspaces\n/);
  assert.ok(existsSync(path.join(reports, "teeth", "teeth.md")));
  // A rule no mutant breaks (exit 1) is test/unit/teeth.test.ts's: here the command's run of the matrix.
  const unknown = spawnSync(process.execPath, [kitPath("bin/lomi-conformance.js"), "teeth", "--mutant", "no-such-mutant", "--reports", reports], {
    encoding: "utf8",
  });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /no mutant is named no-such-mutant/);
});
