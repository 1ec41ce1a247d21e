import { z } from "zod";
import { receiptSchema } from "../receipt.js";

/** What an operation tool answers on admission: its receipt, and whether it is a prior one returned again. */
export function admissionData<T extends string, R extends z.ZodType>(tool: T, result: R) {
  return z.strictObject({ operation: receiptSchema(tool, result), duplicate: z.boolean() });
}
