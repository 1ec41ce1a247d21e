import { z } from "zod";
import { id } from "./fields.js";

// A native decision shown in Lomi (an operation in awaiting_user), as the control API lists and decides it.

export const USER_DECISIONS = ["approve", "deny"] as const;
export type UserDecision = (typeof USER_DECISIONS)[number];

export const pendingDecisionSchema = z.strictObject({
  operationId: id,
  tool: z.string(),
  workspaceId: id,
  question: z.string(),
  /** What the decision is about, as Lomi shows it (for the close guard: the dirty files). */
  subjects: z.array(z.string()),
});
export type PendingDecision = z.infer<typeof pendingDecisionSchema>;

export const pendingDecisionsReply = z.strictObject({ decisions: z.array(pendingDecisionSchema) });
export const decideOperationRequest = z.strictObject({ operationId: id, decision: z.enum(USER_DECISIONS) });
export const decideOperationReply = z.strictObject({ operationId: id, decision: z.enum(USER_DECISIONS) });
