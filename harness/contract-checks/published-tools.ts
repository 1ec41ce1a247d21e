import { CATALOGUE, publishedTool } from "../../protocol/catalogue.js";

type Schema = Record<string, unknown>;

/** A tool as tools/list gave it: what ENV-04 compares with the catalogue. */
export interface ListedTool {
  name: string;
  outputSchema?: Schema;
  annotations?: Record<string, unknown>;
}

/** How many of a tool's differences its problem names: the first few say it, the count says how far it goes. */
const SHOWN = 3;
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);
const typesOf = (s: Schema) => [s.type].flat().filter((t) => t !== undefined).map(String).sort().join("|");
const variantsOf = (s: Schema): unknown[] | undefined => (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined);
const sorted = (values: unknown) => (Array.isArray(values) ? values.map((v) => JSON.stringify(v)).sort().join(",") : "");

/**
 * Where a published JSON Schema says less than, or other than, the catalogue's: its structure —
 * types, constants and enums, each object's keys, which are required and that no other is allowed,
 * array items and union variants — path by path. Annotations (descriptions, titles) and the spelling
 * of bounds and patterns are left to the broker; a generic `{"type": "object"}` names what it lacks.
 */
export function schemaDifferences(published: unknown, expected: Schema, at = "outputSchema"): string[] {
  if (!isSchema(published)) return [`${at} is missing`];
  // The catalogue's own schemas: every variant and property of theirs is a schema.
  const expectedVariants = variantsOf(expected)?.filter(isSchema);
  if (expectedVariants) {
    const publishedVariants = variantsOf(published);
    if (!publishedVariants) return [`${at} is not a union of ${expectedVariants.length} (anyOf/oneOf)`];
    // Each variant the catalogue names must be published as one of the broker's, in any order.
    return expectedVariants.flatMap((v, i) => {
      const nearest = publishedVariants.map((p) => schemaDifferences(p, v, `${at} variant ${i + 1}`)).sort((a, b) => a.length - b.length)[0] ?? [`${at} variant ${i + 1} is missing`];
      return nearest.length === 0 ? [] : nearest;
    });
  }
  const out: string[] = [];
  if (typesOf(expected) !== typesOf(published)) out.push(`${at} has type ${typesOf(published) || "any"}, not ${typesOf(expected)}`);
  if (expected.const !== undefined && JSON.stringify(published.const) !== JSON.stringify(expected.const)) out.push(`${at} is not the constant ${JSON.stringify(expected.const)}`);
  if (expected.enum !== undefined && sorted(published.enum) !== sorted(expected.enum)) out.push(`${at} does not allow exactly ${sorted(expected.enum)}`);
  const properties = expected.properties;
  if (isSchema(properties)) {
    const have = isSchema(published.properties) ? published.properties : {};
    const missing = Object.keys(properties).filter((k) => !(k in have));
    const extra = Object.keys(have).filter((k) => !(k in properties));
    if (missing.length > 0) out.push(`${at} lacks ${missing.join(", ")}`);
    if (extra.length > 0) out.push(`${at} has keys the catalogue does not: ${extra.join(", ")}`);
    if (sorted(published.required) !== sorted(expected.required)) out.push(`${at} requires ${sorted(published.required) || "nothing"}, not ${sorted(expected.required)}`);
    if (expected.additionalProperties === false && published.additionalProperties !== false) out.push(`${at} allows keys it does not name (additionalProperties is not false)`);
    for (const [key, schema] of Object.entries(properties)) if (key in have && isSchema(schema)) out.push(...schemaDifferences(have[key], schema, `${at}.${key}`));
  }
  if (isSchema(expected.items)) out.push(...schemaDifferences(published.items, expected.items, `${at}[]`));
  return out;
}

/**
 * ENV-04 beyond "an output schema is there": each tool of the catalogue that tools/list publishes
 * has the catalogue's output schema (docs/catalogue.json) and its annotations, named by tool.
 */
export function publishedToolProblems(listed: readonly ListedTool[]): string[] {
  return CATALOGUE.flatMap((contract) => {
    const tool = listed.find((t) => t.name === contract.name);
    if (!tool) return [];
    const expected = publishedTool(contract);
    const schema = schemaDifferences(tool.outputSchema, expected.outputSchema);
    const hints = HINTS.filter((h) => tool.annotations?.[h] !== expected.annotations[h]).map((h) => `annotations.${h} is ${JSON.stringify(tool.annotations?.[h])}, not ${expected.annotations[h]}`);
    const all = [...schema, ...hints];
    return all.length === 0 ? [] : [`${contract.name}: ${all.slice(0, SHOWN).join("; ")}${all.length > SHOWN ? `; and ${all.length - SHOWN} more` : ""}`];
  });
}
