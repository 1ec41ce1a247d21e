import { z } from "zod";
import { ERROR_CODES } from "./errors.js";
import { decimalRevision, id, isoTime, requestKey, retryEpoch } from "./fields.js";
import { effectStateSchema, operationStateSchema } from "./states.js";

export const operationErrorSchema = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string(),
});

/** The receipt as a client reads it; `result` is typed per tool in the catalogue. */
export function receiptSchema<T extends string, R extends z.ZodType>(tool: T, result: R) {
  return z.strictObject({
    operationId: id,
    tool: z.literal(tool),
    workspaceId: id,
    projectId: id,
    retryEpoch,
    requestKey,
    state: operationStateSchema,
    effectState: effectStateSchema,
    createdAt: isoTime,
    updatedAt: isoTime,
    result: result.nullable(),
    error: operationErrorSchema.nullable(),
  });
}

export const eventSchema = z.strictObject({
  sequence: decimalRevision,
  operationId: id,
  tool: z.string(),
  workspaceId: id,
  previousState: operationStateSchema.nullable(),
  state: operationStateSchema,
  effectState: effectStateSchema,
  at: isoTime,
});
export type OperationEvent = z.infer<typeof eventSchema>;
