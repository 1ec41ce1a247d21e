import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { contractOf } from "../../protocol/catalogue.js";
import { outputSchemaOf } from "../../protocol/tool-contract.js";
import { describeIssues, specificIssues } from "../../protocol/schema-issues.js";

const replyIssues = (tool: string, reply: unknown) => {
  const parsed = outputSchemaOf(contractOf(tool)!).safeParse(reply);
  assert.equal(parsed.success, false);
  return parsed.error!;
};

// The issue's case: a reply missing its data's required keys read "(root): Invalid input" for every mistake.
test("an ok reply missing a required key names the key, not the envelope union's root", () => {
  const error = replyIssues("lomi_store_reconcile", { controlApiVersion: "1.0", status: "ok", data: {} });
  const paths = specificIssues(error.issues).map((i) => i.path);
  assert.ok(
    paths.every((p) => p.startsWith("data.")),
    paths.join(", "),
  );
  assert.match(describeIssues(error), /^at data\.\w+: Invalid .*expected/);
});

test("an error reply is judged as an error envelope: its unknown code is named, not the ok branch's data", () => {
  const error = replyIssues("lomi_operation_get", { controlApiVersion: "1.0", status: "error", code: "NOPE", message: "x" });
  assert.deepEqual(
    specificIssues(error.issues).map((i) => i.path),
    ["code"],
  );
});

test("a union inside a union is followed down, with the outer path kept", () => {
  const schema = z.object({ a: z.union([z.strictObject({ kind: z.literal("x"), x: z.string() }), z.strictObject({ kind: z.literal("y"), y: z.number() })]) });
  const error = schema.safeParse({ a: { kind: "y", y: "seven" } }).error!;
  assert.deepEqual(specificIssues(error.issues), [{ path: "a.y", message: "Invalid input: expected number, received string" }]);
  assert.equal(describeIssues(schema.safeParse({}).error!), "at a: Invalid input: expected object, received undefined");
});

test("several problems are counted, the first named in full", () => {
  const error = z.strictObject({ a: z.string(), b: z.string(), c: z.string() }).safeParse({}).error!;
  assert.equal(describeIssues(error), "at a: Invalid input: expected string, received undefined (and 2 more: b, c)");
});
