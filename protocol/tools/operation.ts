import { z } from "zod";
import { field, pageLimit } from "../fields.js";
import { eventSchema } from "../receipt.js";
import { READ_ONLY, changes, type ObservationContract } from "../tool-contract.js";
import { MUTATION_NAMES, anyReceiptSchema } from "./mutations.js";

const receiptData = z.strictObject({ operation: anyReceiptSchema });

export const operationGet = {
  name: "lomi_operation_get",
  kind: "observation",
  title: "Read an operation",
  description:
    "Reads an operation's receipt by operationId: state, effectState and typed result. A failed or outcome_unknown operation is a successful read (isError false): inspect state and effectState.",
  hints: READ_ONLY,
  input: z.strictObject({ operationId: field.operationId }),
  data: receiptData,
} satisfies ObservationContract;

export const operationLookup = {
  name: "lomi_operation_lookup",
  kind: "observation",
  title: "Find an operation by its retry identity",
  description:
    "Finds the receipt for (retryEpoch, requestKey, tool), plus projectId when the connection has more than one approved project. Use it when a reply was lost.",
  hints: READ_ONLY,
  input: z.strictObject({
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
    tool: z.enum(MUTATION_NAMES).describe("The name of the operation tool the lost request called, such as lomi_terminal_create."),
    projectId: field.anchorProjectId,
  }),
  data: receiptData,
} satisfies ObservationContract;

export const CANCEL_OUTCOMES = ["cancelled", "cancelling", "already_settled"] as const;

export const operationCancel = {
  name: "lomi_operation_cancel",
  kind: "control",
  title: "Cancel an operation",
  description:
    "Cancels queued work (settles cancelled, nothing done) or requests cancellation of running work (state cancelling; effects may already exist). A settled operation is left unchanged and the answer says already_settled: cancel never undoes a save, Git change, upload, process start or provider send.",
  hints: changes({ destructive: true }),
  input: z.strictObject({ operationId: field.operationId }),
  data: z.strictObject({ outcome: z.enum(CANCEL_OUTCOMES), operation: anyReceiptSchema }),
} satisfies ObservationContract;

export const EVENTS_PAGE_MAX = 200;
export const EVENTS_PAGE_DEFAULT = 50;

export const eventsRead = {
  name: "lomi_events_read",
  kind: "observation",
  title: "Read operation-state events",
  description: `A bounded feed of operation-state metadata for an approved workspace (at most ${EVENTS_PAGE_MAX} a page). Continue with nextCursor even after an empty page. Not terminal output, not UI events, not proof of effect.`,
  hints: READ_ONLY,
  input: z.strictObject({
    workspaceId: field.workspaceId,
    cursor: field.cursor,
    limit: pageLimit("events", EVENTS_PAGE_MAX, EVENTS_PAGE_DEFAULT),
  }),
  data: z.strictObject({ events: z.array(eventSchema), nextCursor: z.string(), hasMore: z.boolean() }),
} satisfies ObservationContract;
