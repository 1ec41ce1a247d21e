import { z } from "zod";
import { outputSchemaOf, type ToolContract, type ToolHints, type ToolKind } from "./tool-contract.js";
import { chatRead } from "./tools/chat.js";
import { gitStatus } from "./tools/git.js";
import { browserSnapshot } from "./tools/browser.js";
import { capture } from "./tools/capture.js";
import { directoryList } from "./tools/directories.js";
import { editorDocuments } from "./tools/editor.js";
import { fileRead } from "./tools/files.js";
import { MUTATIONS } from "./tools/mutations.js";
import { leaseAcquire, ORDERED_INPUT_TOOLS, terminalRead } from "./tools/input.js";
import { eventsRead, operationCancel, operationGet, operationLookup } from "./tools/operation.js";
import { storeReconcile, storeStatus } from "./tools/store.js";
import { settingsRead } from "./tools/settings.js";
import { connect, panelList, workspaceList } from "./tools/workspace.js";

/** Every tool of the reference broker, in the order tools/list shows them. */
export const CATALOGUE = [
  workspaceList,
  connect,
  panelList,
  operationGet,
  operationLookup,
  operationCancel,
  eventsRead,
  storeStatus,
  storeReconcile,
  settingsRead,
  chatRead,
  gitStatus,
  browserSnapshot,
  capture,
  terminalRead,
  leaseAcquire,
  ...ORDERED_INPUT_TOOLS,
  fileRead,
  directoryList,
  editorDocuments,
  ...MUTATIONS,
] as const satisfies readonly ToolContract[];

/** One tool's contract as the catalogue declares it, with its exact input and data schemas. */
export type CatalogueContract = (typeof CATALOGUE)[number];
export type ToolName = CatalogueContract["name"];
export type ContractNamed<N extends ToolName> = Extract<CatalogueContract, { name: N }>;

const BY_NAME = new Map<string, CatalogueContract>(CATALOGUE.map((c) => [c.name, c]));

export function contractOf(name: string): CatalogueContract | undefined {
  return BY_NAME.get(name);
}

export function isToolName(name: string): name is ToolName {
  return BY_NAME.has(name);
}

/** The contract of a tool named in code: the name is checked against the catalogue when compiling. */
export function contractNamed<N extends ToolName>(name: N): ContractNamed<N> {
  return BY_NAME.get(name) as ContractNamed<N>;
}

export interface PublishedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; [k: string]: unknown };
  outputSchema: { type: "object"; [k: string]: unknown };
  annotations: ToolHints & { title: string };
  _meta: { "lomi/kind": string };
}

/** A zod schema as JSON Schema, as the kit publishes every schema (tools/list, docs/catalogue.json): without the $schema line. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

/** tools/list's schemas are objects at the root, as MCP requires. */
const jsonSchema = (schema: z.ZodType, io: "input" | "output") => ({ ...jsonSchemaOf(schema, io), type: "object" as const });

/** What a repeated call does, said once for every tool of a kind that repeats safely only by its identity. */
const REPEATS: Partial<Record<ToolKind, string>> = {
  operation:
    "The reply's data.operation is the receipt (operationId, state, effectState, result); data.duplicate says whether it is an earlier one. Idempotent by its retry identity only: the same retryEpoch and requestKey with exactly the same arguments return the earlier operation (duplicate true) and dispatch nothing, so resend them after a lost reply; a new change needs a new requestKey.",
  input:
    "Idempotent by lease and inputSequence only: the same leaseId and inputSequence with exactly the same payload acknowledge the earlier dispatch and send nothing, so resend them after a lost reply; new input takes the next inputSequence.",
};

/** tools/list as the broker publishes it: complete input and output schemas (ok and error envelopes). */
export function publishedTool(contract: ToolContract): PublishedTool {
  return {
    name: contract.name,
    title: contract.title,
    description: [contract.description, REPEATS[contract.kind]].filter(Boolean).join(" "),
    inputSchema: jsonSchema(contract.input, "input"),
    outputSchema: jsonSchema(outputSchemaOf(contract), "output"),
    annotations: { title: contract.title, ...contract.hints },
    _meta: { "lomi/kind": contract.kind },
  };
}
