import { CATALOGUE, publishedTool } from "../../protocol/catalogue.js";
import { differencesText } from "../expected-found.js";

type Schema = Record<string, unknown>;

/** A tool as tools/list gave it: what ENV-04 compares with the catalogue. */
export interface ListedTool {
  name: string;
  inputSchema?: Schema;
  outputSchema?: Schema;
  annotations?: Record<string, unknown>;
}

/** How many of a tool's differences its problem names: the first few say it, the count says how far it goes. */
const SHOWN = 3;
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);
const typesOf = (s: Schema) =>
  [s.type]
    .flat()
    .filter((t) => t !== undefined)
    .map(String)
    .sort()
    .join("|");
const variantsOf = (s: Schema): unknown[] | undefined => (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined);
const sorted = (values: unknown) =>
  Array.isArray(values)
    ? values
        .map((v) => JSON.stringify(v))
        .sort()
        .join(",")
    : "";

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
      const nearest = publishedVariants.map((p) => schemaDifferences(p, v, `${at} variant ${i + 1}`)).sort((a, b) => a.length - b.length)[0] ?? [
        `${at} variant ${i + 1} is missing`,
      ];
      return nearest.length === 0 ? [] : nearest;
    });
  }
  const out: string[] = [];
  if (typesOf(expected) !== typesOf(published)) out.push(`${at} has type ${typesOf(published) || "any"}, not ${typesOf(expected)}`);
  if (expected.const !== undefined && JSON.stringify(published.const) !== JSON.stringify(expected.const))
    out.push(`${at} is not the constant ${JSON.stringify(expected.const)}`);
  if (expected.enum !== undefined && sorted(published.enum) !== sorted(expected.enum)) out.push(`${at} does not allow exactly ${sorted(expected.enum)}`);
  const properties = expected.properties;
  if (isSchema(properties)) {
    const have = isSchema(published.properties) ? published.properties : {};
    const missing = Object.keys(properties).filter((k) => !(k in have));
    const extra = Object.keys(have).filter((k) => !(k in properties));
    if (missing.length > 0) out.push(`${at} lacks ${missing.join(", ")}`);
    if (extra.length > 0) out.push(`${at} has keys the catalogue does not: ${extra.join(", ")}`);
    if (sorted(published.required) !== sorted(expected.required))
      out.push(`${at} requires ${sorted(published.required) || "nothing"}, not ${sorted(expected.required)}`);
    if (expected.additionalProperties === false && published.additionalProperties !== false)
      out.push(`${at} allows keys it does not name (additionalProperties is not false)`);
    for (const [key, schema] of Object.entries(properties))
      if (key in have && isSchema(schema)) out.push(...schemaDifferences(have[key], schema, `${at}.${key}`));
  }
  if (isSchema(expected.items)) out.push(...schemaDifferences(published.items, expected.items, `${at}[]`));
  return out;
}

/** How one tool of the catalogue is published otherwise: its output schema's differences, its annotations'. */
export interface PublishedToolDifferences {
  tool: string;
  schema: string[];
  hints: string[];
}

/**
 * ENV-04 beyond "an output schema is there": each tool of the catalogue that tools/list publishes
 * has the catalogue's output schema (docs/catalogue.json) and its annotations, named by tool.
 */
export function publishedToolDifferences(listed: readonly ListedTool[]): PublishedToolDifferences[] {
  // A broker publishes the same listing in every scenario of a run (and teeth's judges make run after
  // run): the last listing's differences answer the next identical one, at the cost of its JSON text.
  const text = JSON.stringify(listed);
  if (lastListing?.text !== text) lastListing = { text, found: differencesOf(listed) };
  return lastListing.found;
}

let lastListing: { text: string; found: PublishedToolDifferences[] } | undefined;

function differencesOf(listed: readonly ListedTool[]): PublishedToolDifferences[] {
  return CATALOGUE.flatMap((contract) => {
    const tool = listed.find((t) => t.name === contract.name);
    if (!tool) return [];
    const expected = publishedTool(contract);
    const schema = schemaDifferences(tool.outputSchema, expected.outputSchema);
    const hints = HINTS.filter((h) => tool.annotations?.[h] !== expected.annotations[h]).map((h) =>
      differencesText([{ at: `annotations.${h}`, found: tool.annotations?.[h], expected: expected.annotations[h] }]),
    );
    return schema.length + hints.length === 0 ? [] : [{ tool: contract.name, schema, hints }];
  });
}

/** One tool published otherwise, in a line: the first few differences say it, the count says how far it goes. */
function problemLine({ tool, schema, hints }: PublishedToolDifferences): string {
  const all = [...schema, ...hints];
  return `${tool}: ${all.slice(0, SHOWN).join("; ")}${all.length > SHOWN ? `; and ${all.length - SHOWN} more` : ""}`;
}

/** Each tool published otherwise, a line each. */
export const publishedToolProblems = (listed: readonly ListedTool[]): string[] => publishedToolDifferences(listed).map(problemLine);

/** Tools a summary line names before it counts the rest. */
const NAMED = 3;
const some = (tools: readonly string[]) => `${tools.slice(0, NAMED).join(", ")}${tools.length > NAMED ? `, and ${tools.length - NAMED} more` : ""}`;

/**
 * The ENV-04 finding of a tools/list: one summary line (how many tools, which part of them, the
 * first few named), then a line per tool. A broker that leaves out every annotation reads as one
 * line, not as the same sentence for each of its tools.
 */
export function publishedToolsFinding(listed: readonly ListedTool[]): string | undefined {
  const found = publishedToolDifferences(listed);
  if (found.length === 0) return undefined;
  const schemas = found.filter((f) => f.schema.length > 0).map((f) => f.tool);
  const hints = found.filter((f) => f.hints.length > 0).map((f) => f.tool);
  const parts = [
    ...(schemas.length > 0 ? [`the output schema of ${schemas.length} (${some(schemas)})`] : []),
    ...(hints.length > 0 ? [`the annotations of ${hints.length} (${some(hints)})`] : []),
  ];
  const published = CATALOGUE.filter((c) => listed.some((t) => t.name === c.name)).length;
  return [
    `tools/list publishes ${found.length} of its ${published} catalogue tools otherwise than docs/catalogue.json: ${parts.join("; ")}`,
    ...found.map(problemLine),
  ].join("\n");
}

/**
 * ENV-04's first demand of a tools/list, as one finding: every tool's input schema refuses unknown
 * fields (additionalProperties false) and it has an object output schema. One summary line, then a
 * line per tool.
 */
export function toolSchemasFinding(listed: readonly ListedTool[]): string | undefined {
  const open = listed.filter((t) => !(t.inputSchema?.type === "object" && t.inputSchema.additionalProperties === false)).map((t) => t.name);
  const noOutput = listed.filter((t) => t.outputSchema?.type !== "object").map((t) => t.name);
  if (open.length + noOutput.length === 0) return undefined;
  const parts = [
    ...(open.length > 0 ? [`the input schema of ${open.length} lacks additionalProperties: false (${some(open)})`] : []),
    ...(noOutput.length > 0 ? [`${noOutput.length} have no object outputSchema (${some(noOutput)})`] : []),
  ];
  const lines = listed.flatMap((t) => [
    ...(open.includes(t.name) ? [`${t.name}: inputSchema lacks additionalProperties: false`] : []),
    ...(noOutput.includes(t.name) ? [`${t.name}: no object outputSchema`] : []),
  ]);
  return [`of the ${listed.length} tools tools/list publishes, ${parts.join("; ")}`, ...lines].join("\n");
}
