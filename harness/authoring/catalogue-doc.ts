import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { CATALOGUE, contractOf, jsonSchemaOf as publishedJsonSchema, publishedTool, type CatalogueContract } from "../../protocol/catalogue.js";
import { CONTROL_API_VERSION, errorEnvelopeSchema } from "../../protocol/envelope.js";
import { ERROR_CODES } from "../../protocol/errors.js";
import { kitPath } from "../../protocol/kit-root.js";
import * as bridge from "../../protocol/native-bridge.js";
import { ADMISSION_STATES, EFFECT_STATES, OPERATION_STATES, SETTLED_STATES, TRANSITIONS } from "../../protocol/states.js";
import { outputSchemaOf } from "../../protocol/tool-contract.js";
import { describeIssues } from "../../protocol/schema-issues.js";

export const CATALOGUE_MD = kitPath("docs/catalogue.md");
export const CATALOGUE_JSON = kitPath("docs/catalogue.json");
export const BRIDGE_JSON = kitPath("docs/native-bridge.json");
/** A real call and reply per tool, taken from a run of the suite (npm run catalogue): each is checked against its contract by a test. */
export const CATALOGUE_EXAMPLES = kitPath("docs/catalogue-examples.json");

const call = z.strictObject({ args: z.record(z.string(), z.unknown()), reply: z.unknown() });
export const catalogueExamples = z.record(
  z.string(),
  z.strictObject({
    ...call.shape,
    /** Calls whose ok reply has another shape (another data.status): a reconciliation that completed beside one that awaited the user. */
    also: z.array(call).optional(),
    /** The refusals the suite's scenarios made this tool answer against the reference broker. */
    refusals: z.array(z.enum(ERROR_CODES)).optional(),
  }),
);
export type CatalogueExamples = z.infer<typeof catalogueExamples>;

type JsonSchema = {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  [k: string]: unknown;
};
/** The parts of a generated JSON Schema the tables read; the rest (bounds, pattern, const) passes through as it is. */
const jsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    properties: z.record(z.string(), jsonSchema).optional(),
    required: z.array(z.string()).optional(),
    description: z.string().optional(),
    items: jsonSchema.optional(),
    anyOf: z.array(jsonSchema).optional(),
    oneOf: z.array(jsonSchema).optional(),
    enum: z.array(z.unknown()).optional(),
  }),
);
type ObjectSchema = JsonSchema & { properties: Record<string, JsonSchema> };
const isObjectSchema = (s: JsonSchema): s is ObjectSchema => s.type === "object" && s.properties !== undefined;

const KIND_MEANING: Record<CatalogueContract["kind"], string> = {
  observation: "an observation: answers at once and changes nothing",
  control: "a control tool: answers at once; it has an effect but no receipt",
  operation:
    "an operation: takes retryEpoch and requestKey, answers with a receipt at admission (data.operation) and goes on in Lomi; read it with lomi_operation_get until it settles",
  input: "ordered input: deduplicated by leaseId and inputSequence, answers at once with the dispatch it made or acknowledged",
};

/** Refusals every tool of a kind may answer, besides the narrower ones its validators hold (docs/decisions.md). */
const KIND_ERRORS: Record<CatalogueContract["kind"], string[]> = {
  observation: ["INVALID_ARGUMENT", "PAIRING_REQUIRED", "PAIRING_DENIED", "WORKSPACE_NOT_APPROVED", "NOT_FOUND", "NATIVE_UNAVAILABLE"],
  control: ["INVALID_ARGUMENT", "PAIRING_REQUIRED", "PAIRING_DENIED", "WORKSPACE_NOT_APPROVED", "NOT_FOUND", "NATIVE_UNAVAILABLE"],
  operation: [
    "INVALID_ARGUMENT",
    "PAIRING_REQUIRED",
    "PAIRING_DENIED",
    "WORKSPACE_NOT_APPROVED",
    "PROJECT_REQUIRED",
    "NOT_FOUND",
    "RETRY_EPOCH_INVALID",
    "RETRY_EPOCH_EXPIRED",
    "IDEMPOTENCY_CONFLICT",
    "RESOURCE_EXHAUSTED",
    "STORE_UNAVAILABLE",
    "NATIVE_UNAVAILABLE",
  ],
  input: [
    "INVALID_ARGUMENT",
    "PAIRING_REQUIRED",
    "PAIRING_DENIED",
    "WORKSPACE_NOT_APPROVED",
    "LEASE_REQUIRED",
    "LEASE_EXPIRED",
    "STALE_RUNTIME",
    "INPUT_SEQUENCE_CONFLICT",
    "INPUT_SEQUENCE_GAP",
    "NATIVE_UNAVAILABLE",
  ],
};

/** A contract's JSON Schema as the tables read it. */
const tableSchemaOf = (schema: z.ZodType, io: "input" | "output") => jsonSchema.parse(publishedJsonSchema(schema, io));

/** The machine-readable catalogue: every tool's input and output JSON Schema exactly as the harness checks them, the states and the codes. */
export function catalogueJson() {
  return {
    format: "lomi-catalogue/1",
    controlApiVersion: CONTROL_API_VERSION,
    generatedFrom: "protocol/ (npm run catalogue); docs/catalogue.md says the same for people",
    errorCodes: ERROR_CODES,
    errorEnvelope: publishedJsonSchema(errorEnvelopeSchema, "output"),
    states: { operation: OPERATION_STATES, settled: SETTLED_STATES, admission: ADMISSION_STATES, effect: EFFECT_STATES, transitions: TRANSITIONS },
    // Each tool as tools/list publishes it, so a broker may serve these objects as they stand: its
    // outputSchema (an object at the root, as MCP requires) is what structuredContent must validate
    // against, the ok envelope with this data or the error envelope.
    tools: CATALOGUE.map((c) => ({
      ...publishedTool(c),
      kind: c.kind,
      ...(c.kind === "operation" ? { resultSchema: publishedJsonSchema(c.result, "output") } : {}),
    })),
  };
}

/** The native bridge's requests and replies as JSON Schemas, by path: exactly what the simulated Lomi parses and answers. */
export function bridgeJson(): unknown {
  const pair = (request: z.ZodType, reply: z.ZodType) => ({ request: publishedJsonSchema(request, "input"), reply: publishedJsonSchema(reply, "output") });
  return {
    format: "lomi-native-bridge/1",
    generatedFrom: "protocol/native-bridge.ts (npm run catalogue); docs/native-bridge.md says it in prose",
    method: "POST, a JSON body each way",
    errorReply: publishedJsonSchema(bridge.nativeErrorSchema, "output"),
    paths: {
      [bridge.NATIVE_PATHS.clock]: pair(bridge.clockRequest, bridge.clockReply),
      [bridge.NATIVE_PATHS.pairing]: pair(bridge.pairingRequest, bridge.pairingReply),
      [bridge.NATIVE_PATHS.observe]: pair(bridge.observeRequest, bridge.observeReply),
      [bridge.NATIVE_PATHS.check]: pair(bridge.checkRequest, bridge.checkReply),
      [bridge.NATIVE_PATHS.dispatch]: pair(bridge.dispatchRequest, bridge.nativeProgress),
      [bridge.NATIVE_PATHS.status]: pair(bridge.operationRef, bridge.nativeProgress),
      [bridge.NATIVE_PATHS.cancel]: pair(bridge.operationRef, bridge.nativeProgress),
      [bridge.NATIVE_PATHS.approval]: pair(bridge.approvalRequest, bridge.approvalReply),
      [bridge.NATIVE_PATHS.lease]: pair(bridge.leaseRequest, bridge.leaseReply),
      [bridge.NATIVE_PATHS.input]: pair(bridge.inputRequest, bridge.inputReply),
    },
  };
}

/** A number's bounds in words, leaving out JavaScript's safe-integer limits, which bound nothing a reply holds. */
function numberBounds(s: JsonSchema): string {
  const real = (n: unknown) => typeof n === "number" && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  const low = real(s.exclusiveMinimum) ? `more than ${s.exclusiveMinimum}` : real(s.minimum) ? `${s.minimum}` : undefined;
  const high = real(s.exclusiveMaximum) ? `less than ${s.exclusiveMaximum}` : real(s.maximum) ? `${s.maximum}` : undefined;
  if (low !== undefined && high !== undefined)
    return low.startsWith("more") || high.startsWith("less") ? `${low}, ${high.startsWith("less") ? high : `at most ${high}`}` : `${low} to ${high}`;
  if (low !== undefined) return low.startsWith("more") ? low : `${low} or more`;
  return high === undefined ? "" : high.startsWith("less") ? high : `at most ${high}`;
}

/** "1-128 characters", "1 or more items": a length's bounds in words. */
const lengthBounds = (min: unknown, max: unknown, unit: string) =>
  min === undefined && max === undefined ? "" : max === undefined ? `${min} or more ${unit}` : `${min ?? 0}-${max} ${unit}`;

/** A union's variants (anyOf or oneOf), or the schema itself. */
const variantsOf = (s: JsonSchema): JsonSchema[] => s.anyOf ?? s.oneOf ?? [s];

/** A union's objects told apart by one key's constant ("tool", "kind"): the key, the first object, and each object with its constant. */
type ToldApart = { key: string; first: ObjectSchema; variants: Array<{ object: ObjectSchema; tag: unknown }> };

/** How a union's objects are told apart, if one key's constant does it. */
function toldApart(objects: JsonSchema[]): ToldApart | undefined {
  const withKeys = objects.filter(isObjectSchema);
  const [first] = withKeys;
  if (!first || objects.length < 2 || withKeys.length < objects.length) return undefined;
  const key = Object.keys(first.properties).find((k) => {
    const values = withKeys.map((o) => o.properties[k]?.const);
    return values.every((v) => v !== undefined) && new Set(values).size === withKeys.length;
  });
  return key === undefined ? undefined : { key, first, variants: withKeys.map((object) => ({ object, tag: object.properties[key]?.const })) };
}

/** An object named by its keys: "object {text}". */
const keysOf = (o: JsonSchema) => `object {${Object.keys(o.properties ?? {}).join(", ")}}`;

/** A JSON Schema's type in a few words: "string (1-128 characters, pattern …)", "one of a | b", "object by `kind`: …". */
function typeOf(s: JsonSchema): string {
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(" | ")}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf || s.oneOf) {
    const variants = variantsOf(s);
    const objects = variants.filter((v) => v.type === "object");
    const told = toldApart(objects);
    // Objects told apart by a constant are named by it, the others by their keys: never "object or object or …".
    const named = told
      ? [`object by \`${told.key}\`: ${told.variants.map((v) => JSON.stringify(v.tag)).join(" | ")}`]
      : objects.length > 1
        ? objects.map(keysOf)
        : objects.map(typeOf);
    return [...named, ...variants.filter((v) => v.type !== "object").map(typeOf)].join(" or ");
  }
  const limits = [
    lengthBounds(s.minLength, s.maxLength, "characters"),
    s.type === "integer" || s.type === "number" ? numberBounds(s) : "",
    lengthBounds(s.minItems, s.maxItems, "items"),
    // A format says it in a word; its generated pattern would fill the cell.
    typeof s.pattern === "string" && typeof s.format !== "string" ? `pattern \`${s.pattern}\`` : "",
    typeof s.format === "string" ? s.format : "",
  ].filter(Boolean);
  const base = s.type === "array" && s.items ? `array of ${typeOf(s.items)}` : String(s.type ?? "any");
  return limits.length > 0 ? `${base} (${limits.join(", ")})` : base;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * One row a field, nested fields under their parent's path ("workspaces[].workspaceId"), so every key
 * a reply may carry is named: an object that may be null gets its keys' rows too, and a union of
 * objects told apart by a constant gets the keys they share once and each one's own under a "when".
 */
function fieldRows(schema: JsonSchema, prefix: string, when = ""): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, p]) => {
    const path = `${prefix}${name}`;
    const inner = p.type === "array" && p.items ? p.items : p;
    const under = `${path}${inner === p ? "" : "[]"}.`;
    const objects = variantsOf(inner).filter(isObjectSchema);
    const row = `| \`${path}\` | ${cell(typeOf(p))} | ${required.has(name) ? "yes" : "no"} | ${cell(when + (p.description ?? ""))} |`;
    const told = toldApart(objects);
    if (!told) return [row, ...objects.flatMap((o) => fieldRows(o, under, objects.length > 1 ? `${when}In ${keysOf(o)}. ` : when))];
    const { key, first, variants } = told;
    // The keys every variant has alike are one row each; the rest are each variant's own.
    const shared = (k: string) =>
      k !== key &&
      objects.every(
        (o) =>
          o.properties[k] !== undefined &&
          JSON.stringify(o.properties[k]) === JSON.stringify(first.properties[k]) &&
          (o.required ?? []).includes(k) === (first.required ?? []).includes(k),
      );
    const pick = (o: ObjectSchema, keep: (k: string) => boolean): JsonSchema => ({
      ...o,
      properties: Object.fromEntries(Object.entries(o.properties).filter(([k]) => keep(k))),
    });
    const toldRow = `| \`${under}${key}\` | ${cell(typeOf({ enum: variants.map((v) => v.tag) }))} | yes | ${cell(`${when}Which kind of ${name} this is: the rows that begin "When \`${key}\` is" hold for that kind only.`)} |`;
    return [
      row,
      toldRow,
      ...fieldRows(pick(first, shared), under, when),
      ...variants.flatMap(({ object, tag }) =>
        fieldRows(
          pick(object, (k) => k !== key && !shared(k)),
          under,
          `${when}When \`${key}\` is ${JSON.stringify(tag)}. `,
        ),
      ),
    ];
  });
}

function fieldsTable(schema: JsonSchema): string[] {
  if (Object.keys(schema.properties ?? {}).length === 0) return ["No fields."];
  return ["| field | type | required | meaning |", "|---|---|---|---|", ...fieldRows(schema, "")];
}

/** An example reply's data.status, which tells its shapes apart. */
const replyStatus = z.object({ data: z.object({ status: z.string() }) });

const json = (value: unknown) => ["```json", JSON.stringify(value, null, 2), "```"];

/** docs/catalogue.md: every tool for a person writing a broker, generated from the same contracts as the JSON. */
export function catalogueMarkdown(examples: CatalogueExamples): string {
  const out = [
    "# The tool catalogue",
    "",
    "<!-- Generated by `npm run catalogue` from protocol/ and docs/catalogue-examples.json; edit those, not this file. -->",
    "",
    "Every tool a Lomi broker serves, as the kit checks it. `docs/catalogue.json` holds the same as JSON",
    "Schemas (input, output, data, result), exactly what the harness validates: a reply's `structuredContent`",
    `is \`{"controlApiVersion": "${CONTROL_API_VERSION}", "status": "ok", "data": …}\` with the data below, or the error envelope`,
    '`{"controlApiVersion", "status": "error", "code", "message", "details"?}`. Output schemas are strict: a key the',
    "schema does not name fails ENV-04. `lomi-conformance catalogue` prints this; `--json` prints the JSON.",
    "",
    "Each example is a real call and reply from a run of the suite against the reference broker; identifiers differ",
    "from run to run and broker to broker.",
    "",
    "## Operation states",
    "",
    `States: ${OPERATION_STATES.map((s) => `\`${s}\``).join(", ")}; settled (final): ${SETTLED_STATES.map((s) => `\`${s}\``).join(", ")}; an operation is admitted in ${ADMISSION_STATES.map((s) => `\`${s}\``).join(", ")}. effectState is ${EFFECT_STATES.map((s) => `\`${s}\``).join(", ")}.`,
    "",
    "| from | may move to |",
    "|---|---|",
    ...Object.entries(TRANSITIONS).map(([from, to]) => `| \`${from}\` | ${to.length === 0 ? "nothing (settled)" : to.map((s) => `\`${s}\``).join(", ")} |`),
    "",
    "## Tools",
    "",
    ...CATALOGUE.map((c) => `- [\`${c.name}\`](#${c.name}) (${c.kind}): ${c.title}`),
    "",
  ];
  for (const c of CATALOGUE) {
    const published = publishedTool(c);
    const example = examples[c.name];
    out.push(`### ${c.name}`, "", `**${c.title}** — ${KIND_MEANING[c.kind]}.`, "", published.description, "");
    out.push(
      `Annotations: ${Object.entries(c.hints)
        .map(([k, v]) => `\`${k}: ${String(v)}\``)
        .join(", ")}.`,
      "",
    );
    out.push("Input:", "", ...fieldsTable(tableSchemaOf(c.input, "input")), "");
    out.push("`data` of an ok reply:", "", ...fieldsTable(tableSchemaOf(c.data, "output")), "");
    if (c.kind === "operation")
      out.push(
        "`data.operation.result` once the operation confirmed (or partly confirmed) its effect:",
        "",
        ...fieldsTable(tableSchemaOf(c.result, "output")),
        "",
      );
    // A tool's own refusals: those of its kind, and those the suite's scenarios make it answer (USER_DENIED of a declined reconciliation).
    const provoked = example?.refusals ?? [];
    const refusals = ERROR_CODES.filter((e) => KIND_ERRORS[c.kind].includes(e) || provoked.includes(e));
    out.push(
      `Refusals it may answer (those of its kind, and those the suite's scenarios require of it): ${refusals.map((e) => `\`${e}\``).join(", ")}.${provoked.length > 0 ? ` The scenarios require ${provoked.map((e) => `\`${e}\``).join(", ")}.` : ""}`,
      "",
    );
    for (const [i, e] of [example, ...(example?.also ?? [])].entries()) {
      if (!e) continue;
      const shape = replyStatus.safeParse(e.reply).data?.data.status;
      const which = i === 0 ? "Example call" : `Another reply shape${shape !== undefined ? ` (\`data.status\`: \`${shape}\`)` : ""}: a call`;
      out.push(`${which} (arguments):`, "", ...json(e.args), "", "Its reply's `structuredContent`:", "", ...json(e.reply), "");
    }
  }
  return `${out.join("\n")}\n`;
}

export function readExamples(): CatalogueExamples {
  return catalogueExamples.parse(JSON.parse(readFileSync(CATALOGUE_EXAMPLES, "utf8")));
}

/** Why an example does not fit its tool's contract (its arguments by the input schema, its reply by the output schema), or []. */
export function exampleProblems(examples: CatalogueExamples): string[] {
  return Object.entries(examples).flatMap(([tool, first]) => {
    const c = contractOf(tool);
    if (!c) return [`${tool}: not a tool of the catalogue`];
    return [first, ...(first.also ?? [])].flatMap((e) => {
      const input = c.input.safeParse(e.args);
      const output = outputSchemaOf(c).safeParse(e.reply);
      return [
        ...(input.success ? [] : [`${tool}: the example's arguments break its input schema ${describeIssues(input.error)}`]),
        ...(output.success ? [] : [`${tool}: the example's reply breaks its output schema ${describeIssues(output.error)}`]),
      ];
    });
  });
}

/** The JSON text: one tool a line, so a change to one contract is a one-line diff. */
export function catalogueJsonText(): string {
  const { tools, ...rest } = catalogueJson();
  const head = JSON.stringify(rest, null, 2).replace(/\n}$/, "");
  return `${head},\n  "tools": [\n${tools.map((t) => `    ${JSON.stringify(t)}`).join(",\n")}\n  ]\n}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CATALOGUE_JSON, catalogueJsonText());
  writeFileSync(BRIDGE_JSON, `${JSON.stringify(bridgeJson(), null, 2)}\n`);
  writeFileSync(CATALOGUE_MD, catalogueMarkdown(readExamples()));
  process.stdout.write(`wrote ${CATALOGUE_JSON}, ${CATALOGUE_MD} and ${BRIDGE_JSON}\n`);
}
