import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { kitPath } from "../../protocol/kit-root.js";
import { adopterLock, localPrebuilds, packKit, writeTree } from "../support/adopter-repo.js";
import { runWorkflow, type StepRun, type WorkflowContext } from "../support/workflow-steps.js";
import { rulesDigest, type Provenance } from "../../harness/report/provenance.js";

/**
 * The kit where its users run it: packed, installed from a tarball kept in a broker's repository
 * (offline, from npm's cache), and driven by the CI recipe of docs/implementers.md exactly as
 * written (examples/ci/lomi-conformance.yml), on a correct broker, a broken one, and a command
 * npx cannot find.
 */

const RECIPE = kitPath("examples/ci/lomi-conformance.yml");
const ACTION_RECIPE = kitPath("examples/ci/lomi-conformance-action.yml");
const COMMENT_IF = "always() && github.event_name == 'pull_request' && github.event.pull_request.head.repo.full_name == github.repository";
const PULL_REQUEST_IF = "always() && github.event_name == 'pull_request'";

type Report = {
  verdict: string;
  headline: string;
  scenarios: { total: number; fail: number };
  rules: Array<{ id: string; verdict: string; reason?: string | null }>;
};

const stepOf = (runs: StepRun[], label: string) => {
  const found = runs.find((r) => r.label === label);
  assert.ok(found, `no step "${label}" in ${runs.map((r) => r.label).join(", ")}`);
  return found;
};

/**
 * A stand-in for the GitHub CLI: records each call; `--edit-last` fails while there is no comment to
 * edit, as gh's does; `run list` finds a run of the base branch only when $FAKE_BASE_REPORTS names
 * the reports it uploaded, and `run download … --dir D` puts them in D.
 */
function fakeGh(bin: string, log: string): void {
  mkdirSync(bin, { recursive: true });
  const gh = path.join(bin, "gh");
  writeFileSync(
    gh,
    `#!/usr/bin/env bash
echo "$* token=$GH_TOKEN" >> "${log}"
if [ "$1 $2" = "run list" ]; then [ -n "$FAKE_BASE_REPORTS" ] && echo 4242; exit 0; fi
if [ "$1 $2" = "run download" ]; then while [ $# -gt 0 ]; do [ "$1" = --dir ] && dir=$2; shift; done; mkdir -p "$dir" && cp -r "$FAKE_BASE_REPORTS"/. "$dir"; exit 0; fi
for a in "$@"; do [ "$a" = --edit-last ] && [ ! -e "${log}.commented" ] && exit 1; done
touch "${log}.commented"
`,
  );
  chmodSync(gh, 0o755);
}

test("a broker's repository installs the packed kit offline and gates on it with the CI recipe as written", { timeout: 15 * 60_000 }, async (t) => {
  // bin/ is JavaScript the build does not compile: imported from the kit's root, as this test may run compiled.
  const { buildIsFresh } = (await import(pathToFileURL(kitPath("bin/compiled.js")).href)) as { buildIsFresh: () => boolean };
  assert.ok(buildIsFresh(), "dist/ is not the build of these sources: run npm run build (npm test builds before the end-to-end tests)");
  const repo = mkdtempSync(path.join(os.tmpdir(), "lomi-adopter-"));
  const outside = mkdtempSync(path.join(os.tmpdir(), "lomi-adopter-tools-"));
  const tarball = path.relative(repo, packKit((mkdirSync(path.join(repo, "vendor")), path.join(repo, "vendor"))));
  // The package carries the compiled kit, not the kit's own tests the build compiles beside it in a clone.
  const packed = spawnSync("tar", ["-tzf", path.join(repo, tarball)], { encoding: "utf8" }).stdout;
  assert.match(packed, /^package\/dist\/harness\//m);
  assert.doesNotMatch(packed, /^package\/dist\/(test|bench|examples)\//m);
  writeTree(repo, {
    "package.json": `${JSON.stringify({ name: "my-broker", version: "1.0.0", private: true, type: "module", scripts: { build: "node scripts/build.mjs" }, devDependencies: { "lomi-conformance-kit": `file:${tarball}` }, allowScripts: { "better-sqlite3": true, esbuild: true } }, null, 2)}\n`,
    "package-lock.json": adopterLock("my-broker", repo, tarball),
    "conformance-baseline.json": `${JSON.stringify({ expectedFailures: [] }, null, 2)}\n`,
    // The team's broker: here the kit's reference broker, and one with a defect, started from this repository.
    "src/broker.mjs": `await import("lomi-conformance-kit/bin/lomi-broker.js");\n`,
    "src/broken-broker.mjs": `process.argv.splice(2, 0, "idem-fresh-operation-per-retry");\nawait import("lomi-conformance-kit/mutants/lomi-mutant.js");\n`,
    // A broker as the MCP SDKs make one (non-object arguments answered by a JSON-RPC error): it crashed the kit's report once.
    "src/sdk-broker.mjs": readFileSync(kitPath("test/fixtures/brokers/sdk-invalid-params.mjs"), "utf8").replace('"../../../bin/lomi-broker.js"', '"broker.js"'),
    "scripts/build.mjs": `import { cpSync, mkdirSync, readdirSync } from "node:fs";\nmkdirSync("dist", { recursive: true });\nfor (const f of readdirSync("src")) cpSync(\`src/\${f}\`, \`dist/\${f.replace(/\\.mjs$/, ".js")}\`);\n`,
  });
  const summary = path.join(outside, "step-summary.md");
  // What the base branch's run uploaded, once the first test has made it.
  const baseReports = path.join(outside, "base-reports");
  const ghLog = path.join(outside, "gh.log");
  fakeGh(path.join(outside, "bin"), ghLog);
  const uploaded: string[] = [];
  const context = (event: "same-repo" | "fork"): WorkflowContext => ({
    cwd: repo,
    env: {
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_EVENT_NAME: "pull_request",
      npm_config_offline: "true",
      ...localPrebuilds(path.join(outside, "prebuilds")),
      PATH: `${path.join(outside, "bin")}:${process.env.PATH}`,
    },
    expressions: {
      "github.token": "token-of-the-run",
      "github.event.pull_request.number": "42",
      "github.repository": "me/my-broker",
      "github.base_ref": "main",
    },
    conditions: (c, failed) =>
      c === "always()" || c === PULL_REQUEST_IF ? true : c === COMMENT_IF ? event === "same-repo" : c === "success()" ? !failed : undefined,
    uses: (step) => {
      if (step.uses?.startsWith("actions/upload-artifact@")) uploaded.push(String(step.with?.path));
    },
  });
  const report = (): Report => JSON.parse(readFileSync(path.join(repo, "reports/conformance.json"), "utf8")) as Report;

  await t.test(
    "a correct broker, a pull request from the same repository: installed, judged with --parallel 2 and its fault hooks, summarised and commented",
    async () => {
      // A scenario or two of each thing that needs the most of the kit where it is installed (fault hooks, crashes, a kill at start,
      // two workers), not the whole suite: the whole suite is judged in-process and over HTTP elsewhere in npm test, and the crash
      // and fault scenarios over stdio by test:crash.
      // @IDEM-01 too: these reports are the base branch's in the next test, which breaks it.
      const runs = await runWorkflow(RECIPE, {
        ...context("same-repo"),
        workflowEnv: { LOMI_TAGS: "@DUR-06 or @DUR-05 or @DUR-08 or @OP-05 or @SCH-06 or @IDEM-01" },
      });
      for (const label of [
        "Install",
        "Build the broker",
        "Conformance",
        "Reports of the base branch",
        "Compare with the base branch",
        "Summary",
        "Comment on the pull request",
      ])
        assert.equal(stepOf(runs, label).outcome, "success", `${label}:\n${stepOf(runs, label).output.slice(-4000)}`);
      // The base branch has no run yet: nothing to compare with, and the comment is the run's report.
      assert.match(stepOf(runs, "Compare with the base branch").output, /no reports of the base branch: nothing to compare with/);
      const r = report();
      assert.equal(r.verdict, "conformant", r.headline);
      assert.match(r.headline, /^CONFORMANT over stdio: /);
      assert.equal(r.scenarios.fail, 0);
      // Judged as with one worker: every rule reached passes. DUR-08 alone may read not applicable, "not
      // exercised": its kills land inside the store's making only where the broker takes long enough to
      // make it, and on a quiet machine the reference broker makes it in a few milliseconds (a pass the
      // kit did not see is never given).
      const judged = (x: { id: string; verdict: string; reason?: string | null }) =>
        x.verdict === "pass" || (x.id === "DUR-08" && x.verdict === "not-applicable" && /not exercised/.test(x.reason ?? ""));
      const reached = r.rules.filter((x) => x.verdict !== "not-selected");
      assert.deepEqual(
        reached.filter((x) => !judged(x)).map((x) => `${x.id}: ${x.verdict} (${x.reason ?? ""})`),
        [],
      );
      for (const id of ["DUR-01", "DUR-05", "DUR-06", "SCH-06"])
        assert.equal(r.rules.find((x) => x.id === id)?.verdict, "pass", `${id}: the fault-hook and crash rules are judged too`);
      assert.ok(judged(r.rules.find((x) => x.id === "DUR-08")!), "DUR-08: the kill-at-start rule is judged, or said not exercised");
      const md = readFileSync(summary, "utf8");
      assert.match(md, /^## Lomi conformance: partial run \(tags `[^`]+`\): .*CONFORMANT over stdio/m);
      assert.ok(!md.includes(repo) && !md.includes(os.tmpdir()), "the summary names no path of the runner");
      const gh = readFileSync(ghLog, "utf8").trim().split("\n");
      assert.deepEqual(gh, [
        "run list --workflow lomi-conformance.yml --branch main --event push --status completed --limit 1 --json databaseId --jq .[0].databaseId // empty token=token-of-the-run",
        "pr comment 42 --body-file reports/conformance.md --edit-last token=token-of-the-run",
        "pr comment 42 --body-file reports/conformance.md token=token-of-the-run",
      ]);
      assert.deepEqual(uploaded, ["reports/"]);
      // What the reports say made them, as the installed kit wrote them: its version and the digest of its rules, on the
      // badge, in junit.xml's properties and in conformance.json.
      const { version } = JSON.parse(readFileSync(kitPath("package.json"), "utf8")) as { version: string };
      const rules = rulesDigest().digest;
      const provenance = (JSON.parse(readFileSync(path.join(repo, "reports/conformance.json"), "utf8")) as { provenance: Provenance }).provenance;
      assert.deepEqual([provenance.kit.version, provenance.rules.digest, provenance.profile, provenance.node], [version, rules, "stdio", process.version]);
      assert.equal(provenance.broker.digest?.of, "dist/broker.js", "the file the broker command runs, hashed");
      const badge = readFileSync(path.join(repo, "reports/conformance.svg"), "utf8");
      assert.match(
        badge,
        new RegExp(
          `<title>lomi conformance: [^<]*\\(lomi-conformance-kit ${version.replace(/\./g, "\\.")}, rules ${rules}, evidence sha256:[0-9a-f]{64}\\)</title>`,
        ),
      );
      const junit = readFileSync(path.join(repo, "reports/junit.xml"), "utf8");
      for (const [name, value] of [
        ["kit-version", version],
        ["rules-digest", rules],
      ])
        assert.ok(junit.includes(`<property name="${name}" value="${value}"/>`), `junit.xml names ${name}`);
      cpSync(path.join(repo, "reports"), baseReports, { recursive: true });
    },
  );

  await t.test(
    "the kit's GitHub Action from the installed package: the job summary, the verdict and the reports as outputs, the job failed as the run; verify re-checks the reports it leaves",
    async () => {
      writeFileSync(summary, "");
      uploaded.length = 0;
      const runs = await runWorkflow(ACTION_RECIPE, {
        ...context("fork"),
        from: "Conformance",
        workflowEnv: { BROKER_CMD: "node dist/broken-broker.js", LOMI_TAGS: "@IDEM-01 and (@IDEM-05 or @OP-01)" },
      });
      const gate = stepOf(runs, "Conformance");
      assert.equal(gate.outcome, "failure", "the job fails as the run does");
      assert.equal(gate.code, 1, gate.output.slice(-3000));
      const r = report();
      const written = JSON.parse(readFileSync(path.join(repo, "reports/conformance.json"), "utf8")) as { title: string; evidence: { digest: string } };
      assert.deepEqual(
        { ...gate.outputs },
        {
          verdict: "not-conformant",
          "exit-code": "1",
          headline: written.title,
          reports: "reports",
          "report-json": "reports/conformance.json",
          "report-md": "reports/conformance.md",
          "report-html": "reports/conformance.html",
          junit: "reports/junit.xml",
          badge: "reports/conformance.svg",
          "evidence-digest": written.evidence.digest,
        },
      );
      assert.equal(stepOf(runs, "Verdict").outcome, "success");
      assert.match(stepOf(runs, "Verdict").output, /^verdict not-conformant \(partial run .*NOT CONFORMANT.*\); evidence sha256:[0-9a-f]{64}$/m);
      assert.deepEqual(uploaded, ["reports"], "the workflow uploads the folder the Action names");
      assert.match(readFileSync(summary, "utf8"), /^## Lomi conformance: partial run \(tags `@IDEM-01 and \(@IDEM-05 or @OP-01\)`\): .*NOT CONFORMANT/m);
      assert.equal(r.rules.find((x) => x.id === "IDEM-01")?.verdict, "fail");
      // The reports a release would carry, checked offline by the installed kit: untouched they verify; a verdict edited does not.
      const npx = (...args: string[]) =>
        spawnSync("npx", ["lomi-conformance", ...args], { cwd: repo, encoding: "utf8", env: { ...process.env, ...context("fork").env } });
      const verified = npx("verify", "reports");
      assert.equal(verified.status, 0, `${verified.stdout}${verified.stderr}`);
      assert.match(
        verified.stdout,
        /^lomi-conformance verify: VERIFIED: every verdict in reports derives from its evidence \(2 scenario\(s\), 2 histories judged again, 1 message stream\(s\)\)/m,
      );
      const json = path.join(repo, "reports/conformance.json");
      writeFileSync(json, readFileSync(json, "utf8").replace('"verdict": "not-conformant"', '"verdict": "conformant"'));
      const edited = npx("verify", "reports");
      assert.equal(edited.status, 1, `${edited.stdout}${edited.stderr}`);
      assert.match(edited.stdout, /^ {2}conformance\.json verdict: says "conformant"; the evidence gives "not-conformant"$/m);
    },
  );

  await t.test("a broken broker, a pull request from a fork: the gate fails naming the rule, the summary is written, no comment is tried", async () => {
    writeFileSync(summary, "");
    writeFileSync(ghLog, "");
    const fork = context("fork");
    const runs = await runWorkflow(RECIPE, {
      ...fork,
      env: { ...fork.env, FAKE_BASE_REPORTS: baseReports },
      from: "Conformance",
      workflowEnv: { BROKER_CMD: "node dist/broken-broker.js", LOMI_TAGS: "@IDEM-01 or @OP-01" },
    });
    const gate = stepOf(runs, "Conformance");
    assert.equal(gate.outcome, "failure");
    assert.equal(gate.code, 1, gate.output.slice(-3000));
    assert.equal(stepOf(runs, "Summary").outcome, "success");
    assert.equal(stepOf(runs, "Comment on the pull request").outcome, "skipped");
    assert.doesNotMatch(readFileSync(ghLog, "utf8"), /pr comment/);
    const r = report();
    assert.equal(r.verdict, "not-conformant");
    assert.equal(r.rules.find((x) => x.id === "IDEM-01")?.verdict, "fail");
    // The base branch's reports (the correct broker's) were fetched and compared: IDEM-01 passed there and fails here.
    const compared = stepOf(runs, "Compare with the base branch");
    assert.equal(compared.code, 1, compared.output.slice(-3000));
    assert.match(compared.output, /REGRESSED: \d+ rule\(s\) newly failing \([^)]*IDEM-01/);
    assert.match(compared.output, /NEWLY FAILING IDEM-01 \(MUST\) pass → fail/);
    const md = readFileSync(summary, "utf8");
    assert.match(md, /^## Lomi conformance, compared with the base: REGRESSED/m);
    assert.match(md, /NOT CONFORMANT/);
    assert.ok(!md.includes(repo) && !md.includes(os.tmpdir()), "the comparison names no path of the runner");
  });

  await t.test("a pull request from the same repository with the base branch's reports: the comment is the comparison", async () => {
    writeFileSync(ghLog, "");
    const runs = await runWorkflow(RECIPE, { ...context("same-repo"), from: "Comment on the pull request" });
    assert.equal(stepOf(runs, "Comment on the pull request").outcome, "success");
    // The first comment was made in the first test: this one edits it.
    assert.deepEqual(readFileSync(ghLog, "utf8").trim().split("\n"), ["pr comment 42 --body-file reports/compare.md --edit-last token=token-of-the-run"]);
    // A runner starts clean: the next pull request has fetched no base reports yet.
    rmSync(path.join(repo, "base-reports"), { recursive: true });
  });

  await t.test("with --parallel 1 the same broken broker is judged as with --parallel 2: the relative command runs in the repository in every worker", () => {
    const twoWorkers = report();
    const one = spawnSync(
      "npx",
      [
        "lomi-conformance",
        "--broker-cmd",
        "node dist/broken-broker.js",
        "--broker-faults",
        "--parallel",
        "1",
        "--tags",
        "@IDEM-01 or @OP-01",
        "--reports",
        "reports-p1",
      ],
      { cwd: repo, encoding: "utf8", env: { ...process.env, ...context("fork").env } },
    );
    assert.equal(one.status, 1, `${one.stdout}${one.stderr}`);
    const oneWorker = JSON.parse(readFileSync(path.join(repo, "reports-p1/conformance.json"), "utf8")) as Report;
    const verdicts = (r: Report) => Object.fromEntries(r.rules.map((x) => [x.id, x.verdict]));
    assert.deepEqual(verdicts(oneWorker), verdicts(twoWorkers));
    assert.equal(oneWorker.scenarios.total, twoWorkers.scenarios.total);
  });

  await t.test(
    "a broker that answers non-object arguments with a JSON-RPC error (as SDKs do): every rule judged, SCH-06 among them, every report written",
    async () => {
      const runs = await runWorkflow(RECIPE, {
        ...context("fork"),
        from: "Conformance",
        workflowEnv: { BROKER_CMD: "node dist/sdk-broker.js", LOMI_TAGS: "@SCH-06 or @SCH-01 or @OP-01" },
      });
      const gate = stepOf(runs, "Conformance");
      assert.ok(gate.code === 0 || gate.code === 1, `a verdict, not a harness fault (exit ${gate.code}):\n${gate.output.slice(-3000)}`);
      const r = report();
      assert.ok(["conformant", "not-conformant"].includes(r.verdict), r.headline);
      assert.ok(
        r.rules.filter((x) => x.verdict === "pass").some((x) => x.id === "OP-01"),
        "the other rules are judged",
      );
      assert.ok(["pass", "fail"].includes(r.rules.find((x) => x.id === "SCH-06")?.verdict ?? ""), "SCH-06 itself is judged, whatever the verdict");
      for (const file of ["conformance.md", "conformance.html", "junit.xml", "conformance.svg"])
        assert.doesNotMatch(readFileSync(path.join(repo, "reports", file), "utf8"), /NOT RUN/, file);
      assert.equal(stepOf(runs, "Summary").outcome, "success");
    },
  );

  await t.test("npx of a broker the repository does not have: exit 2 naming the command, and no registry is asked", async () => {
    let asked = 0;
    const registry = createServer((socket) => {
      asked++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
    try {
      const port = (registry.address() as { port: number }).port;
      // A runner that silenced npx's prompt and may reach a registry: the kit must still keep npx offline.
      const { npm_config_offline: _, ...online } = context("fork").env;
      const runs = await runWorkflow(RECIPE, {
        ...context("fork"),
        env: { ...online, npm_config_yes: "true", npm_config_registry: `http://127.0.0.1:${port}/`, npm_config_fetch_retries: "0" },
        from: "Conformance",
        workflowEnv: { BROKER_CMD: "npx lomi-no-such-broker --stdio" },
      });
      assert.equal(stepOf(runs, "Conformance").code, 2, stepOf(runs, "Conformance").output);
      const r = report();
      assert.equal(r.verdict, "not-run");
      assert.match(r.headline, /NOT RUN: the broker command "npx lomi-no-such-broker --stdio"/);
      assert.equal(asked, 0, "npx asked a registry for the broker");
    } finally {
      registry.close();
    }
  });

  await t.test("explore and check run from the installed kit", async () => {
    const npx = (...args: string[]) =>
      spawnSync("npx", ["lomi-conformance", ...args], { cwd: repo, encoding: "utf8", env: { ...process.env, ...context("fork").env } });
    const found = npx("explore", "--mutant", "op-failure-as-mcp-error", "--reports", "explore-reports");
    assert.equal(found.status, 1, `${found.stdout}${found.stderr}`);
    assert.match(found.stdout, /VIOLATION of receipts-readable/);
    const checked = npx("check", "explore-reports/explore-history.jsonl");
    assert.equal(checked.status, 1, `${checked.stdout}${checked.stderr}`);
    assert.match(checked.stdout, /^  FAIL OP-03$/m);
    assert.match(checked.stdout, /\(receipts-readable\)/);
  });
});
