import { z } from "zod";
import { ERROR_CODES, type LomiError } from "./errors.js";

export const CONTROL_API_VERSION = "1.0" as const;

const detailValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const errorEnvelopeSchema = z.strictObject({
  controlApiVersion: z.literal(CONTROL_API_VERSION),
  status: z.literal("error"),
  code: z.enum(ERROR_CODES),
  message: z.string().min(1),
  details: z.record(z.string(), detailValue).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export function okEnvelopeSchema<D extends z.ZodType>(data: D) {
  return z.strictObject({
    controlApiVersion: z.literal(CONTROL_API_VERSION),
    status: z.literal("ok"),
    data,
  });
}
export interface OkEnvelope<D> {
  controlApiVersion: typeof CONTROL_API_VERSION;
  status: "ok";
  data: D;
}
export type Envelope<D = unknown> = OkEnvelope<D> | ErrorEnvelope;

/** A loose reading of any envelope, for clients that do not know the tool's data schema yet. */
export const anyEnvelopeSchema = z.union([okEnvelopeSchema(z.unknown()), errorEnvelopeSchema]);

export interface ImageBlock {
  type: "image";
  data: string;
  mimeType: "image/png";
}

/** The MCP tool result for an envelope: structuredContent, a text block mirroring it, isError exactly for errors. */
export interface EnvelopeToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string } | ImageBlock>;
  structuredContent: Envelope;
  isError: boolean;
}

/**
 * The one envelope builder: every reply of the reference broker goes through here. `text` is the
 * envelope's JSON when the caller has already serialized it (one stringify per reply, not two).
 */
export function buildToolResult(envelope: Envelope, images: ImageBlock[] = [], text = JSON.stringify(envelope)): EnvelopeToolResult {
  return {
    content: [{ type: "text", text }, ...images],
    structuredContent: envelope,
    isError: envelope.status === "error",
  };
}

export function ok<D>(data: D): OkEnvelope<D> {
  return { controlApiVersion: CONTROL_API_VERSION, status: "ok", data };
}

export function errorOf(error: LomiError): ErrorEnvelope {
  const envelope: ErrorEnvelope = {
    controlApiVersion: CONTROL_API_VERSION,
    status: "error",
    code: error.code,
    message: error.message,
  };
  if (error.details) {
    const details = Object.fromEntries(Object.entries(error.details).filter(([, v]) => v !== undefined));
    if (Object.keys(details).length > 0) envelope.details = details as ErrorEnvelope["details"];
  }
  return envelope;
}
