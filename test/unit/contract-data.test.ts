import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../harness/harness-error.js";
import { contractData } from "../../harness/contract-checks/reply-checks.js";
import { contractNamed } from "../../protocol/catalogue.js";
import { outputSchemaOf } from "../../protocol/tool-contract.js";

const status = { receipts: { count: 3, limit: 4096 }, retryEpochs: { count: 1, limit: 4096, expired: 0 }, unfinished: 0, outcomeUnknown: 0 };

test("a reply's data that fits its tool's contract reaches the step as parsed", () => {
  const data = contractData("lomi_store_status", status);
  assert.deepEqual(data, status);
  assert.equal(data.receipts.limit, 4096);
});

test("a reply's data of the wrong shape fails the scenario as a violation naming the tool and the field, never as a cast", () => {
  const wrong = { ...status, receipts: { count: "3", limit: 4096 } };
  assert.throws(
    () => contractData("lomi_store_status", wrong),
    (error: unknown) =>
      error instanceof HarnessError &&
      error.kind === "violation" &&
      error.message.startsWith("lomi_store_status's data breaks its output schema at receipts.count:") &&
      error.rules.join() === "ENV-04",
  );
  assert.throws(
    () => contractData("lomi_store_status", { ...status, extra: 1 }),
    (error: unknown) => error instanceof HarnessError && error.rules.join() === "ENV-04" && /lomi_store_status/.test(error.message),
  );
});

test("a tool's output schema is built once and then reused for every reply", () => {
  const contract = contractNamed("lomi_operation_get");
  assert.equal(outputSchemaOf(contract), outputSchemaOf(contract));
  assert.notEqual(outputSchemaOf(contract), outputSchemaOf(contractNamed("lomi_store_status")));
});
