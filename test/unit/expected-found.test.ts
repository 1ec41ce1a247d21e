import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { bytesDifference, differences, differencesText, expectBytes, expectIncluded, expectSame } from "../../harness/expected-found.js";
import { HarnessError } from "../../harness/harness-error.js";
import { kitPath } from "../../protocol/kit-root.js";

/** What a check throws, or undefined when it holds. */
function thrown(check: () => void): HarnessError | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof HarnessError, `a typed violation, not ${String(error)}`);
    return error;
  }
}

test("every figure that differs, found first, on one line; an object's extra key and a missing one each named", () => {
  const found = differences(
    { status: "completed", removed: { receipts: 0, events: 0, retryEpochs: 1 }, extra: true },
    { status: "completed", removed: { receipts: 1, events: 3, retryEpochs: 1 } },
    "",
  );
  assert.equal(differencesText(found), "removed.receipts: 0, expected 1; removed.events: 0, expected 3; extra: true, expected absent");
  assert.equal(differencesText(differences([1, 2], [1, 2, 3], "ids")), "ids: [1,2], expected [1,2,3]", "arrays of another length whole");
  assert.equal(differencesText(differences(["a", "b"], ["a", "c"], "paths")), 'paths[1]: "b", expected "c"', "strings quoted: an empty or spaced one shows");
  assert.deepEqual(differences({ a: 1, b: 2 }, { a: 1 }, "data", true), [], "partial: the keys the step names only");
  assert.deepEqual(
    differences({ a: undefined }, {}, "x"),
    [{ at: "x", found: { a: undefined }, expected: {} }],
    "deep-equal's strictness kept: the whole values say it",
  );
});

test("expectSame and expectIncluded throw one violation, its summary first, what was seen below, the rules it names", () => {
  assert.equal(
    thrown(() => expectSame("n", 3, 3)),
    undefined,
  );
  const error = thrown(() =>
    expectSame("native dispatches", 2, 1, {
      why: "one request, one dispatch",
      seen: { label: "Lomi saw", value: [{ op: "a" }, { op: "b" }] },
      rules: ["IDEM-01"],
    }),
  )!;
  assert.equal(error.kind, "violation");
  assert.deepEqual(error.message.split("\n"), ["native dispatches: 2, expected 1 (one request, one dispatch)", 'Lomi saw: [{"op":"a"},{"op":"b"}]']);
  assert.deepEqual(error.rules, ["IDEM-01"]);
  assert.deepEqual(thrown(() => expectSame("state", "running", "succeeded"))!.rules, [], "no rule named: the step's rules are blamed, as for any failed step");
  assert.equal(
    thrown(() => expectIncluded("data", { a: 1, b: 2 }, { a: 1 })),
    undefined,
  );
  assert.equal(thrown(() => expectIncluded("data", { a: 2 }, { a: 1 }))!.message, "data.a: 2, expected 1");
});

test("bytes part where they first differ: the lengths when they differ, the bytes from there on, both strings below", () => {
  const crlf = Buffer.from("ab\r\ncd\r\n");
  const lf = Buffer.from("ab\ncd\n");
  assert.equal(bytesDifference(crlf, crlf), undefined);
  assert.equal(bytesDifference(crlf, lf), "8 bytes, expected 6; from byte 2 on: 0d 0a 63 64 0d 0a, expected 0a 63 64 0a");
  assert.equal(bytesDifference(Buffer.from("abc"), Buffer.from("abd")), "byte 2 of 3 on: 63, expected 64");
  assert.equal(bytesDifference(Buffer.from("ab"), Buffer.from("abc")), "2 bytes, expected 3; from byte 2 on: (the end), expected 63");
  const error = thrown(() => expectBytes("the file", crlf, lf))!;
  assert.deepEqual(error.message.split("\n").slice(1), ["found:    61 62 0d 0a 63 64 0d 0a", "expected: 61 62 0a 63 64 0a"]);
});

test("no step passes an assertion library's message through as its evidence: steps/ checks with the kit's own", () => {
  const dir = kitPath("steps");
  const using = readdirSync(dir).filter((f) => /\.[cm]?[jt]s$/.test(f) && /from "(node:)?assert(\/strict)?"/.test(readFileSync(path.join(dir, f), "utf8")));
  assert.deepEqual(using, [], "check with harness/expected-found.ts (or throw violation), so the report reads one expected/found");
});
