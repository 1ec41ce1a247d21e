import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

type JsonSchema = {
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** Every property of an input schema, nested ones included (objects, array items, union variants), with its path. */
function properties(schema: JsonSchema, path = ""): Array<{ path: string; schema: JsonSchema }> {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, s]) => [{ path: `${path}${name}`, schema: s }, ...properties(s, `${path}${name}.`)]);
  const nested = [schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]
    .filter((s): s is JsonSchema => s !== undefined)
    .flatMap((s) => properties(s, s === schema.items ? `${path}[].` : path));
  return [...own, ...nested];
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

test("tools/list of the running broker describes every tool and every input property, and annotates every tool", async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["bin/lomi-broker.js", "--simulate"], stderr: "pipe" });
  const client = new Client({ name: "tools-list-check", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 39, `${tools.length} tools`);
    const missing: string[] = [];
    let described = 0;
    for (const tool of tools) {
      if (!tool.description?.trim()) missing.push(`${tool.name}: no description`);
      const a = tool.annotations;
      if (!a?.title?.trim()) missing.push(`${tool.name}: no annotations.title`);
      for (const hint of HINTS) if (typeof a?.[hint] !== "boolean") missing.push(`${tool.name}: no annotations.${hint}`);
      for (const p of properties(tool.inputSchema as JsonSchema)) {
        if (p.schema.description?.trim()) described++;
        else missing.push(`${tool.name}: input ${p.path} has no description`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(described >= 190, `${described} described input properties`);

    const byName = new Map(tools.map((t) => [t.name, t]));
    // Spot checks that the hints say what the tools do.
    assert.equal(byName.get("lomi_operation_get")?.annotations?.readOnlyHint, true);
    assert.equal(byName.get("lomi_directory_delete")?.annotations?.destructiveHint, true);
    assert.equal(byName.get("lomi_terminal_create")?.annotations?.readOnlyHint, false);
    for (const tool of tools.filter((t) => t.inputSchema.properties?.requestKey && t.annotations?.readOnlyHint === false)) {
      assert.match(tool.description ?? "", /Idempotent by its retry identity only/, `${tool.name} says how it repeats safely`);
      assert.equal(tool.annotations?.idempotentHint, true, tool.name);
    }
  } finally {
    await client.close();
  }
});
