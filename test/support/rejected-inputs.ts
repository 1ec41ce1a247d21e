import fc from "fast-check";
import { ownObject } from "./in-process-broker.js";

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; enum?: unknown[] };

const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];
const BAD_NUMBERS_AS_TEXT = ["-1", "-0", "0x1f", "1e3", "07", "+7", "1.5", " 7", "7 ", "٣", "７", "99999999999999999999", "", "NaN", "Infinity", "7\u0000"];

/** A value the published schema accepts, built from the JSON Schema (fields shaped by their patterns). */
function plausible(schema: Schema, mergeVariants: boolean): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) {
    const variants = schema.anyOf.filter((v) => v.type !== "null");
    if (mergeVariants && variants.every((v) => v.type === "object")) return Object.assign({}, ...variants.map((v) => plausible(v, false)));
    return plausible(variants[0] ?? schema.anyOf[0]!, mergeVariants);
  }
  switch (schema.type) {
    case "object":
      return Object.fromEntries((schema.required ?? []).map((k) => [k, plausible(schema.properties![k]!, mergeVariants)]));
    case "array":
      return [];
    case "boolean":
      return true;
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "null":
      return null;
    default:
      return plausibleString(schema);
  }
}

function plausibleString(schema: Schema): string {
  const pattern = String(schema.pattern ?? "");
  if (pattern.includes("[0-9a-f]{64}")) return "a".repeat(64);
  if (pattern.includes("(0|[1-9]")) return "7";
  if (pattern.startsWith("^[1-9]")) return "1";
  if (pattern.includes("[0-9]{1,19}")) return "0";
  if (schema.format === "uri") return "https://docs.lomi.test/";
  if (schema.contentEncoding === "base64" || pattern.includes("A-Za-z0-9+/")) return "aGk=";
  if (pattern.includes("\\.[A-Za-z]")) return "com.example.app";
  return "ws-alpha-12345678".slice(0, typeof schema.maxLength === "number" ? Math.max(1, Math.min(17, schema.maxLength)) : 17);
}

function keysOf(schema: Schema): string[] {
  const own = Object.keys(schema.properties ?? {});
  const nested = [...Object.values(schema.properties ?? {}), ...(schema.anyOf ?? []), ...(schema.items ? [schema.items] : [])].flatMap(keysOf);
  return [...new Set([...own, ...nested])];
}

function misspellings(key: string): string[] {
  return [
    key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    key.toLowerCase(),
    key[0]!.toUpperCase() + key.slice(1),
    `${key}s`,
    key.slice(0, -1),
    ` ${key}`,
    `${key}\u200b`,
  ];
}

/** Values of the wrong type or past a documented bound, control and unicode characters included. */
function badValue(): fc.Arbitrary<unknown> {
  const small = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  return fc.oneof(
    small,
    fc.constantFrom(...BAD_NUMBERS_AS_TEXT),
    fc.integer({ min: -(2 ** 40), max: -1 }),
    fc.string({ unit: "grapheme", maxLength: 30 }),
    fc.integer({ min: 2_000, max: 200_000 }).map((n) => "\u0007é𝄞".repeat(Math.ceil(n / 4))),
    fc.array(small, { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), small, { maxKeys: 3 }),
  );
}

/**
 * Inputs for one tool that its published input schema may reject: not objects at all, and mutations
 * of an accepted input (a field dropped, a wrong or out-of-range value, an unknown, misspelt or
 * prototype-named key, both variants of a union). The caller keeps only those the schema rejects.
 */
export function candidateInputs(inputSchema: Schema): fc.Arbitrary<unknown> {
  const base = plausible(inputSchema, false) as Record<string, unknown>;
  const merged = plausible(inputSchema, true) as Record<string, unknown>;
  // A tool without fields still gets misspelt neighbours of the common ones.
  const known = keysOf(inputSchema).length ? keysOf(inputSchema) : ["workspaceId", "retryEpoch", "requestKey"];
  const topKeys = Object.keys(inputSchema.properties ?? {});
  const entries = (o: Record<string, unknown>) => Object.entries(o);
  const strayKey = fc.oneof(
    fc.constantFrom(...PROTOTYPE_KEYS),
    fc.constantFrom(...known.flatMap(misspellings)),
    fc.constantFrom(...known),
    fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
    fc.integer({ min: 200, max: 100_000 }).map((n) => "k".repeat(n)),
  );
  const notAnObject = fc.oneof(
    fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );
  const dropped = fc.constantFrom(...(topKeys.length ? topKeys : ["none"])).map((k) => ownObject(entries(base).filter(([key]) => key !== k)));
  const wrongValue = fc
    .tuple(fc.constantFrom(...(topKeys.length ? topKeys : ["none"])), badValue())
    .map(([k, v]) => ownObject([...entries(base).filter(([key]) => key !== k), [k, v]]));
  const extraKey = fc.tuple(strayKey, badValue()).map(([k, v]) => ownObject([...entries(base), [k, v]]));
  const garbage = fc.array(fc.tuple(fc.oneof(strayKey, fc.constantFrom(...known)), badValue()), { maxLength: 6 }).map(ownObject);
  return fc.oneof(notAnObject, dropped, wrongValue, extraKey, garbage, fc.constant(merged));
}
