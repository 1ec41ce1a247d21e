import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  BRIDGE_JSON,
  CATALOGUE_JSON,
  CATALOGUE_MD,
  bridgeJson,
  catalogueJson,
  catalogueJsonText,
  catalogueMarkdown,
  exampleProblems,
  readExamples,
} from "../../harness/authoring/catalogue-doc.js";
import { CATALOGUE } from "../../protocol/catalogue.js";

// The published catalogue is what a broker written in another language is built from: it must say
// exactly what the harness checks, for every tool, with an example that really passes.

test("docs/catalogue.md, catalogue.json and native-bridge.json are what npm run catalogue makes from protocol/ today", () => {
  assert.equal(readFileSync(CATALOGUE_JSON, "utf8"), catalogueJsonText(), "docs/catalogue.json is stale: run npm run catalogue");
  assert.equal(readFileSync(BRIDGE_JSON, "utf8"), `${JSON.stringify(bridgeJson(), null, 2)}\n`, "docs/native-bridge.json is stale: run npm run catalogue");
  assert.equal(readFileSync(CATALOGUE_MD, "utf8"), catalogueMarkdown(readExamples()), "docs/catalogue.md is stale: run npm run catalogue");
});

test("every tool has an example call whose arguments and reply fit its contract", () => {
  const examples = readExamples();
  assert.deepEqual(
    CATALOGUE.map((c) => c.name).filter((name) => !examples[name]),
    [],
    "tools without an example",
  );
  assert.deepEqual(exampleProblems(examples), []);
});

test("an example that breaks its contract is named, by tool and field", () => {
  const examples = readExamples();
  const [tool, example] = Object.entries(examples).find(([, e]) => Object.keys(e.args).includes("workspaceId"))!;
  const broken = { ...examples, [tool]: { args: { ...example.args, workspaceId: 42 }, reply: { ...(example.reply as object), status: "fine" } } };
  const problems = exampleProblems(broken);
  assert.ok(
    problems.some((p) => p.startsWith(`${tool}:`) && p.includes("input schema at workspaceId")),
    problems.join("\n"),
  );
  assert.ok(
    problems.some((p) => p.startsWith(`${tool}:`) && p.includes("output schema")),
    problems.join("\n"),
  );
});

// A team on another stack validates with a JSON Schema library, not zod: the published schemas must
// accept each real example and refuse an extra key, as ENV-04 does.
test("the published JSON Schemas accept every example and refuse a key the schema does not name", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const examples = readExamples();
  const tools = (catalogueJson() as { tools: { name: string; inputSchema: object; outputSchema: object }[] }).tools;
  for (const tool of tools) {
    const input = ajv.compile(tool.inputSchema);
    const output = ajv.compile(tool.outputSchema);
    for (const example of [examples[tool.name]!, ...(examples[tool.name]!.also ?? [])]) {
      assert.ok(input(example.args), `${tool.name} input: ${ajv.errorsText(input.errors)}`);
      assert.ok(output(example.reply), `${tool.name} output: ${ajv.errorsText(output.errors)}`);
      assert.equal(output({ ...(example.reply as object), extra: true }), false, `${tool.name}: an extra key passed its output schema`);
    }
  }
});

// A team writing from docs/ alone needs every key a reply may hold, the kinds of a union by name, bounds
// as the schema says them, a reconciliation that completed, and the refusals the scenarios require.
test("docs/catalogue.md names every nested key, names union kinds by their constant, says bounds right, and lists the refusals scenarios require", () => {
  const md = catalogueMarkdown(readExamples());
  const section = (tool: string) => md.split(`### ${tool}\n`)[1]!.split("\n### ")[0]!;
  const reconcile = section("lomi_store_reconcile");
  for (const key of ["removed.receipts", "removed.retryEpochs", "removed.events", "kept.receipts", "kept.unfinished", "kept.outcomeUnknown"])
    assert.ok(reconcile.includes(`| \`${key}\` |`), `${key} has no row`);
  assert.match(reconcile, /data\.status`: `completed`/, "a completed reconciliation is shown");
  assert.match(reconcile, /Refusals it may answer[^\n]*The scenarios require[^\n]*`USER_DENIED`/);
  assert.match(section("lomi_connect"), /Refusals it may answer[^\n]*The scenarios require[^\n]*`RESOURCE_EXHAUSTED`/);
  assert.doesNotMatch(md, /object or object/, "a union of objects is named by what tells them apart");
  assert.match(section("lomi_operation_get"), /\| `operation` \| object by `tool`: "lomi_terminal_create" \\\| "lomi_terminal_run" /);
  assert.match(section("lomi_operation_get"), /\| `operation\.result` \| [^|]* \| (yes|no) \| When `tool` is "lomi_terminal_run"\./);
  assert.match(section("lomi_panel_list"), /\| `panels\[\]\.terminalSessionId` \| [^|]* \| (yes|no) \| When `kind` is "terminal"\./);
  assert.doesNotMatch(md, /-∞|9007199254740991/, "no safe-integer limit or minus infinity where the schema gives none");
  assert.match(section("lomi_file_write"), /\| `content` \| object \{text\} or object \{base64\} \|/);
  assert.match(section("lomi_store_status"), /\| `receipts\.limit` \| integer \(more than 0\) \|/);
});
