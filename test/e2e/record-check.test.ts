import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { runFeature } from "../support/run-feature.js";
import { check, recorderArgs, stdioSession } from "../support/recorder.js";
import { LOADER_ARGS, supportModule } from "../support/test-modules.js";

const MUTANT = "idem-fresh-operation-per-retry";

test("check on recorded traffic: what was judged and why not, a report marking the violating records, and a scenario that fails the broker as the recording did", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-record-check-"));
  const history = path.join(dir, "traffic.jsonl");
  // A real agent's retry of a terminal creation, through a broker that treats a retry as a new request.
  const recorded = await stdioSession("claude-desktop", recorderArgs(history, ["mutants/lomi-mutant.js", MUTANT, "--simulate", "--approve-pairings"]));
  const call = async (name: string, args: Record<string, unknown>) =>
    (await recorded.client.callTool({ name, arguments: args })).structuredContent as { data: Record<string, any> };
  await call("lomi_workspace_list", {});
  const connected = await call("lomi_connect", { workspaceId: "ws-alpha" });
  const create = {
    workspaceId: "ws-alpha",
    cwdRelative: "",
    title: "Tests",
    expectedRevision: connected.data.domainRevision,
    retryEpoch: connected.data.retryEpoch,
    requestKey: "create-1",
  };
  const first = await call("lomi_terminal_create", create);
  await call("lomi_operation_get", { operationId: first.data.operation.operationId });
  await call("lomi_terminal_create", create);
  await recorded.client.close();

  const markdown = path.join(dir, "report.md");
  const judged = check(history, "--report", markdown, "--scenario");
  assert.equal(judged.code, 1, judged.stdout + judged.stderr);
  assert.match(judged.stdout, /5 calls from 1 agent\(s\) \(claude-desktop\) over 1 connection\(s\), 0 broker crash\(es\)/);
  assert.match(judged.stdout, /times are the recorder's clock, not Lomi's: a retry epoch's expiry is not judged/);
  assert.match(
    judged.stdout,
    /1 rule\(s\) fail, \d+ pass \(their situation arose and held\), \d+ not exercised \(their situation never arose\); \d+ not judged here: .*the history carries no effect ledger/,
  );
  assert.match(judged.stdout, /FAIL IDEM-\d+\n\s+.*\[records 3, 5\] \(idempotency\)/);

  const page = readFileSync(markdown, "utf8");
  const marked = page.split("\n").filter((l) => l.startsWith("| ❌"));
  assert.deepEqual(
    marked.map((l) => /\*\*(\d+)\*\*/.exec(l)?.[1]),
    ["3", "5"],
    "exactly the cited records are marked",
  );
  assert.ok(marked.every((l) => l.endsWith("| idempotency |")));
  const html = path.join(dir, "report.html");
  check(history, "--report", html);
  assert.equal(readFileSync(html, "utf8").match(/<tr id="r\d+" class="cited">/g)?.length, 2);

  // A refused run writes reports saying why: into the test's folder, not the kit's reports/.
  const misplaced = spawnSync(process.execPath, ["bin/lomi-conformance.js", "--scenario", "--reports", path.join(dir, "refused")], { encoding: "utf8" });
  assert.equal(misplaced.status, 2);
  assert.match(misplaced.stderr, /--scenario is not an option of a conformance run \(it goes with check\)/);

  const skeleton = judged.stdout.slice(judged.stdout.indexOf("# A Gherkin skeleton"), judged.stdout.lastIndexOf("VIOLATION of"));
  assert.match(skeleton, /@IDEM-01/);
  assert.match(skeleton, /Given the agent is connected to workspace "ws-alpha"/);
  assert.match(
    skeleton,
    /"expectedRevision":"\{\{revision:ws-alpha\}\}","retryEpoch":"\{\{epoch:ws-alpha\}\}"/,
    "IDs the session learnt become the suite's placeholders",
  );
  assert.match(skeleton, /When the agent retries "terminal_create-3"/);
  const reference = await runFeature(skeleton);
  assert.equal(reference.success, true, `the scenario passes the reference broker: ${JSON.stringify(reference.results)}`);
  // Cucumber loads the steps once a process: the mutant's run is a process of its own.
  const script = `import { runFeature } from ${JSON.stringify(supportModule("run-feature"))}; const r = await runFeature(${JSON.stringify(skeleton)}, { mutant: ${JSON.stringify(MUTANT)} }); process.stdout.write("RESULT " + JSON.stringify(r));`;
  const mutant = spawnSync(process.execPath, [...LOADER_ARGS, "--input-type=module", "-e", script], { encoding: "utf8" });
  const result = JSON.parse(mutant.stdout.slice(mutant.stdout.indexOf("RESULT ") + 7)) as Awaited<ReturnType<typeof runFeature>>;
  assert.equal(result.success, false, "the scenario fails the broker that was recorded");
  assert.deepEqual(
    result.results.map((r) => r.verdict),
    ["fail"],
  );
});
