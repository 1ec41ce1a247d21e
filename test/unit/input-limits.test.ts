import assert from "node:assert/strict";
import { test } from "node:test";
import { CATALOGUE, publishedTool } from "../../protocol/catalogue.js";

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };

/** A string is bounded by maxLength, a fixed set of values, or an anchored pattern without * or +. */
function unbounded(schema: Schema, at: string): string[] {
  const own: string[] = [];
  if (schema.type === "string" && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) {
    const pattern = typeof schema.pattern === "string" ? schema.pattern : "";
    if (!/^\^.*\$$/.test(pattern) || /[*+]/.test(pattern)) own.push(`${at}: string without a bound`);
  }
  if (schema.type === "array" && schema.maxItems === undefined) own.push(`${at}: array without maxItems`);
  if (schema.type === "object" && schema.additionalProperties !== false) own.push(`${at}: object that takes unknown fields`);
  const nested = [
    ...Object.entries(schema.properties ?? {}).map(([k, v]) => unbounded(v, `${at}.${k}`)),
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].map((v, i) => unbounded(v, `${at}|${i}`)),
    ...(schema.items ? [unbounded(schema.items, `${at}[]`)] : []),
  ];
  return [...own, ...nested.flat()];
}

test("every input field of every tool is bounded, as docs/spec.md's input limits say", () => {
  const problems = CATALOGUE.flatMap((c) => unbounded(publishedTool(c).inputSchema as Schema, c.name));
  assert.deepEqual(problems, []);
});
