import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ORACLE_UNKNOWN_MEDIA_TYPE } from "../../harness/report/attachments.js";
import { judgeMadeUpRun } from "../support/judge.js";
import { scenarioResults } from "../../harness/report/scenario-results.js";
import { readMessages } from "../../harness/report/message-stream.js";
import { loadRules } from "../../harness/rules.js";
import { scenarioCatalogue } from "../../harness/run/feature-catalogue.js";
import { messagesOf } from "../support/cucumber-messages.js";
import { checkHistory, ORACLES, unknownsOf } from "../../harness/oracles/index.js";
import type { Oracle } from "../../harness/oracles/oracle.js";
import { admit, get, history } from "../support/histories.js";

const op = "op-0000000000000000000000001";
// A settled receipt that later reads running: the transitions oracle finds it.
const broken = history([
  admit({ operationId: op, state: "running", effectState: "none" }),
  get({ operationId: op, state: "succeeded", effectState: "complete" }),
  get({ operationId: op, state: "running", effectState: "none" }),
]);

const throwing: Oracle = {
  id: "throws",
  rules: ["OP-02"],
  title: "an oracle with a fault of its own",
  needsLedger: false,
  check: () => {
    throw new TypeError("cannot read properties of undefined (reading 'state')");
  },
  triggers: () => ({ "OP-02": 1 }),
};

test("an oracle that throws gives its own verdict unknown, with the error, and every other verdict stands as without it", () => {
  const alone = checkHistory(broken);
  const withFault = checkHistory(broken, [...ORACLES.slice(0, 3), throwing, ...ORACLES.slice(3)]);
  const unknown = unknownsOf(withFault);
  assert.deepEqual(
    unknown.map((u) => u.id),
    ["throws"],
  );
  assert.match(unknown[0]!.error, /TypeError: cannot read properties of undefined/);
  assert.deepEqual(
    withFault.filter((v) => v.id !== "throws"),
    alone,
    "the other oracles' verdicts, the transitions failure among them, are unchanged",
  );
  assert.ok(
    alone.some((v) => v.id === "legal-transitions" && v.verdict === "fail"),
    "the history breaks an oracle that still judges it",
  );
});

test("a history whose facts cannot be worked out leaves every oracle unknown, with the reason, never a pass", () => {
  const unreadable = { ...broken, records: null as unknown as typeof broken.records };
  const verdicts = checkHistory(unreadable);
  assert.equal(verdicts.length, ORACLES.length);
  assert.ok(verdicts.every((v) => v.verdict === "unknown" && /facts could not be worked out/.test(v.error)));
});

test("a scenario whose history an oracle could not judge keeps its own verdict, and the run names the harness's fault in its warnings", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-oracle-unknown-"));
  try {
    const messages = path.join(dir, "messages.ndjson");
    const unknown = [{ id: "legal-transitions", rules: ["OP-02"], error: "TypeError: boom\n    at check" }];
    writeFileSync(
      messages,
      messagesOf([
        {
          name: "A made-up scenario",
          tags: ["@OP-02"],
          status: "PASSED",
          attachments: [{ body: JSON.stringify(unknown), mediaType: ORACLE_UNKNOWN_MEDIA_TYPE }],
        },
      ]),
    );
    const results = scenarioResults(readMessages(messages));
    assert.deepEqual(
      results.map((r) => [r.verdict, r.oraclesUnknown]),
      [["pass", ["legal-transitions (OP-02): TypeError: boom\n    at check"]]],
    );
    const { run } = judgeMadeUpRun({ rules: loadRules().rules, results, suite: scenarioCatalogue(), tags: "@OP-02" });
    assert.equal(run.rules.find((r) => r.id === "OP-02")?.verdict, "pass", "the scenario's verdict stands");
    assert.deepEqual(run.warnings, [
      'harness error: in "A made-up scenario" the oracle legal-transitions (OP-02): TypeError: boom — not judged by it; the scenario\'s other verdicts stand',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
