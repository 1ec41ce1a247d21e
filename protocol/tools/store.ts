import { z } from "zod";
import { field, id } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract } from "../tool-contract.js";

const capacity = z.strictObject({ count: z.number().int().nonnegative(), limit: z.number().int().positive() });

export const storeStatus = {
  name: "lomi_store_status",
  kind: "observation",
  title: "Receipt store status",
  description:
    "Counts and limits of the broker's receipt store: receipts and retry epochs (at most 4,096 each), how many epochs have expired, how many operations are unfinished or outcome_unknown. Expired records stay until deliberate maintenance (lomi_store_reconcile).",
  hints: READ_ONLY,
  input: z.strictObject({}),
  data: z.strictObject({
    receipts: capacity,
    retryEpochs: capacity.extend({ expired: z.number().int().nonnegative() }),
    unfinished: z.number().int().nonnegative(),
    outcomeUnknown: z.number().int().nonnegative(),
  }),
} satisfies ObservationContract;

export const RECONCILE_MAX_NAMED = 100;

export const storeReconcile = {
  name: "lomi_store_reconcile",
  kind: "control",
  title: "Reconcile the receipt store",
  description:
    "Deliberate maintenance, approved by the user in Lomi: removes settled receipts older than olderThanHours (default 24) and expired retry epochs no receipt refers to. Unfinished and outcome_unknown operations are kept unless named in forgetOperationIds (inspect the real resources first). The first call asks the user and answers awaiting_user; call again with the same arguments once approved.",
  hints: changes({ destructive: true, idempotent: false }),
  input: z.strictObject({
    olderThanHours: z
      .number()
      .int()
      .min(0)
      .max(8760)
      .describe("Remove settled receipts older than this many hours on Lomi's clock: 0-8760, default 24.")
      .optional(),
    forgetOperationIds: z
      .array(field.operationId)
      .max(RECONCILE_MAX_NAMED)
      .describe(
        `Unfinished or outcome_unknown operations to forget as well (at most ${RECONCILE_MAX_NAMED} operationIds), once you have inspected the real resources; without it they are kept.`,
      )
      .optional(),
  }),
  data: z.strictObject({
    status: z.enum(["awaiting_user", "completed"]),
    approvalId: id,
    removed: z.strictObject({ receipts: z.number().int(), retryEpochs: z.number().int(), events: z.number().int() }).nullable(),
    kept: z.strictObject({ receipts: z.number().int(), unfinished: z.number().int(), outcomeUnknown: z.number().int() }).nullable(),
  }),
} satisfies ObservationContract;
