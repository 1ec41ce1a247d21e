import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { kitPath } from "../../protocol/kit-root.js";
import { convertedToolsList } from "../../reference-broker/tools-list.js";

// Where the build puts it: the compiled broker (dist/reference-broker/, dist/bundle/) reads it one folder up.
const SHIPPED = kitPath("dist/tools-list.json");

test("the tools/list the build ships is exactly a fresh conversion of the contracts (npm run build regenerates it)", () => {
  assert.ok(existsSync(SHIPPED), `${SHIPPED} is missing: run npm run build`);
  const shipped: unknown = JSON.parse(readFileSync(SHIPPED, "utf8"));
  assert.deepEqual(shipped, convertedToolsList(), "a contract changed since the last build: run npm run build");
});

test("run from its TypeScript, the broker finds no built file and converts the contracts", () => {
  // The tests may run compiled: the TypeScript module is loaded in a process of its own, through tsx.
  const source = pathToFileURL(kitPath("reference-broker/tools-list.ts")).href;
  const script = `import { existsSync } from "node:fs"; import { TOOLS_LIST_FILE, toolsList } from ${JSON.stringify(source)}; process.stdout.write(JSON.stringify({ file: TOOLS_LIST_FILE.href, exists: existsSync(TOOLS_LIST_FILE), tools: toolsList() }));`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(child.status, 0, child.stderr);
  const { file, exists, tools } = JSON.parse(child.stdout) as { file: string; exists: boolean; tools: unknown };
  assert.equal(exists, false, `${file} should exist only in dist/`);
  assert.deepEqual(tools, convertedToolsList());
});
