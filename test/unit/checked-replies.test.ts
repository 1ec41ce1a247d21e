import assert from "node:assert/strict";
import { test } from "node:test";
import { CheckedReplies } from "../../reference-broker/checked-replies.js";

test("a checked reply is known again only for the same tool and the same text", () => {
  const checked = new CheckedReplies();
  checked.add("lomi_operation_get", '{"a":1}');
  assert.equal(checked.has("lomi_operation_get", '{"a":1}'), true);
  assert.equal(checked.has("lomi_operation_get", '{"a":2}'), false);
  assert.equal(checked.has("lomi_operation_lookup", '{"a":1}'), false);
});

test("past its capacity the oldest reply is forgotten, and a long reply is never kept", () => {
  const checked = new CheckedReplies(2, 10);
  checked.add("t", "1");
  checked.add("t", "2");
  checked.add("t", "3");
  assert.deepEqual(
    ["1", "2", "3"].map((text) => checked.has("t", text)),
    [false, true, true],
  );
  checked.add("t", "x".repeat(11));
  assert.equal(checked.has("t", "x".repeat(11)), false);
});
