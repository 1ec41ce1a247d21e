import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { convertedToolsList, TOOLS_LIST_FILE, toolsList } from "../../reference-broker/tools-list.js";

// Where the build puts it: the compiled broker (dist/reference-broker/, dist/bundle/) reads it one folder up.
const SHIPPED = new URL("../../dist/tools-list.json", import.meta.url);

test("the tools/list the build ships is exactly a fresh conversion of the contracts (npm run build regenerates it)", () => {
  assert.ok(existsSync(SHIPPED), `${SHIPPED.pathname} is missing: run npm run build`);
  const shipped: unknown = JSON.parse(readFileSync(SHIPPED, "utf8"));
  assert.deepEqual(shipped, convertedToolsList(), "a contract changed since the last build: run npm run build");
});

test("run from its TypeScript, the broker finds no built file and converts the contracts", () => {
  assert.equal(existsSync(TOOLS_LIST_FILE), false, `${TOOLS_LIST_FILE.pathname} should exist only in dist/`);
  assert.deepEqual(toolsList(), convertedToolsList());
});
