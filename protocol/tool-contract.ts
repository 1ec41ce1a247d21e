import { z } from "zod";
import { errorEnvelopeSchema, okEnvelopeSchema } from "./envelope.js";

export type ToolKind = "observation" | "operation" | "control" | "input";

/**
 * MCP's tool annotations (the title is the contract's), true to what the tool does in Lomi: an agent's
 * client decides from them what to run without asking. Hints about effects mean something only when
 * readOnlyHint is false.
 */
export interface ToolHints {
  readOnlyHint: boolean;
  /** It may overwrite, remove or run something (a command, a click); false: it only adds. */
  destructiveHint: boolean;
  /** The same arguments again add no effect: for operations by their retry identity, for input by lease and inputSequence. */
  idempotentHint: boolean;
  /** It may reach beyond Lomi: a web page, a chat provider, whatever a shell command does. */
  openWorldHint: boolean;
}

/** An observation: reads Lomi and changes nothing. */
export const READ_ONLY: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A tool that changes something; idempotent unless said otherwise. */
export function changes(effects: { destructive: boolean; openWorld?: boolean; idempotent?: boolean }): ToolHints {
  return { readOnlyHint: false, destructiveHint: effects.destructive, idempotentHint: effects.idempotent ?? true, openWorldHint: effects.openWorld ?? false };
}

interface ContractBase<I extends z.ZodObject, D extends z.ZodType> {
  name: `lomi_${string}`;
  kind: ToolKind;
  title: string;
  description: string;
  hints: ToolHints;
  /** Always a strict object: unknown fields are rejected. */
  input: I;
  /** The `data` of the ok envelope. */
  data: D;
}

export type ObservationContract<I extends z.ZodObject = z.ZodObject, D extends z.ZodType = z.ZodType> = ContractBase<I, D> & {
  kind: "observation" | "control";
};

/** What every operation's input carries: the workspace it acts in, its anchor project, and its retry identity. */
export interface OperationIdentity {
  workspaceId: string;
  projectId?: string | undefined;
  retryEpoch: string;
  requestKey: string;
}

/** An operation's input schema: a strict object whose input carries the operation's identity. */
export type OperationInput = z.ZodObject & z.ZodType<OperationIdentity>;

export type OperationContract<I extends OperationInput = OperationInput, R extends z.ZodType = z.ZodType> = ContractBase<I, z.ZodType> & {
  kind: "operation";
  /** The typed result a confirmed (or partially confirmed) operation carries in its receipt. */
  result: R;
  /** The input field naming the exact runtime generation the operation targets, bound into the fingerprint. */
  generationField?: keyof z.infer<I> & string;
  /** The input field carrying the revision the operation was decided on, bound into the fingerprint. */
  revisionField?: keyof z.infer<I> & string;
  /** Operations on the same target key run one at a time, in admission order; the rest wait `queued`. */
  serializeOn: keyof z.infer<I> & string;
};

/** Ordered input: answers at once, deduplicated by lease and inputSequence rather than a receipt. */
export type InputContract<I extends z.ZodObject = z.ZodObject, D extends z.ZodType = z.ZodType> = ContractBase<I, D> & { kind: "input" };

export type ToolContract = ObservationContract | OperationContract | InputContract;

/** The arguments a tool's handler receives: its input as the input schema parsed it. */
export type InputOf<C extends ToolContract> = z.infer<C["input"]>;
/** The `data` of a tool's ok envelope. */
export type DataOf<C extends ToolContract> = z.infer<C["data"]>;

const outputSchemas = new WeakMap<ToolContract, z.ZodType>();

/**
 * What structuredContent may be for this tool: its ok envelope or the shared error envelope. Built
 * once per contract: building the union costs about ten times parsing a reply with it, and every
 * reply is checked against it (by the broker before it answers, by the suite when it reads).
 */
export function outputSchemaOf(contract: ToolContract): z.ZodType {
  let schema = outputSchemas.get(contract);
  if (!schema) {
    schema = z.union([okEnvelopeSchema(contract.data), errorEnvelopeSchema]);
    outputSchemas.set(contract, schema);
  }
  return schema;
}
