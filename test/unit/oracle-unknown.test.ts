import assert from "node:assert/strict";
import { test } from "node:test";
import { checkHistory, ORACLES, unknownsOf } from "../../harness/oracles/index.js";
import type { Oracle } from "../../harness/oracles/oracle.js";
import { admit, get, history } from "../support/histories.js";

const op = "op-0000000000000000000000001";
// A settled receipt that later reads running: the transitions oracle finds it.
const broken = history([admit({ operationId: op, state: "running", effectState: "none" }), get({ operationId: op, state: "succeeded", effectState: "complete" }), get({ operationId: op, state: "running", effectState: "none" })]);

const throwing: Oracle = {
  id: "throws",
  rules: ["OP-02"],
  title: "an oracle with a fault of its own",
  needsLedger: false,
  check: () => {
    throw new TypeError("cannot read properties of undefined (reading 'state')");
  },
};

test("an oracle that throws gives its own verdict unknown, with the error, and every other verdict stands as without it", () => {
  const alone = checkHistory(broken);
  const withFault = checkHistory(broken, [...ORACLES.slice(0, 3), throwing, ...ORACLES.slice(3)]);
  const unknown = unknownsOf(withFault);
  assert.deepEqual(unknown.map((u) => u.id), ["throws"]);
  assert.match(unknown[0]!.error, /TypeError: cannot read properties of undefined/);
  assert.deepEqual(withFault.filter((v) => v.id !== "throws"), alone, "the other oracles' verdicts, the transitions failure among them, are unchanged");
  assert.ok(alone.some((v) => v.id === "legal-transitions" && v.verdict === "fail"), "the history breaks an oracle that still judges it");
});

test("a history whose facts cannot be worked out leaves every oracle unknown, with the reason, never a pass", () => {
  const unreadable = { ...broken, records: null as unknown as typeof broken.records };
  const verdicts = checkHistory(unreadable);
  assert.equal(verdicts.length, ORACLES.length);
  assert.ok(verdicts.every((v) => v.verdict === "unknown" && /facts could not be worked out/.test(v.error)));
});
