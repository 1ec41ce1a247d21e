import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { canonicalJson, fingerprintOf, receiptKeyOf } from "../../reference-broker/fingerprint.js";

test("canonical JSON does not depend on key order", () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
      const reversed = Object.fromEntries(Object.entries(obj).reverse());
      assert.equal(canonicalJson(obj), canonicalJson(reversed));
    }),
  );
});

test("the fingerprint changes with the payload, the generation and the revision", () => {
  const base = fingerprintOf({ title: "Tests" }, "term-1", "7");
  assert.notEqual(fingerprintOf({ title: "Other" }, "term-1", "7"), base);
  assert.notEqual(fingerprintOf({ title: "Tests" }, "term-2", "7"), base);
  assert.notEqual(fingerprintOf({ title: "Tests" }, "term-1", "8"), base);
  assert.equal(fingerprintOf({ title: "Tests" }, "term-1", "7"), base);
});

test("the receipt key binds every part of the identity", () => {
  const id = { pairingId: "p", retryEpoch: "e", projectId: "pr", tool: "t", requestKey: "k" };
  const base = receiptKeyOf(id);
  for (const field of Object.keys(id) as Array<keyof typeof id>) {
    assert.notEqual(receiptKeyOf({ ...id, [field]: `${id[field]}x` }), base, field);
  }
});
