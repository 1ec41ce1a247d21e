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
/** How old a settled receipt's last change must be, in hours on Lomi's clock, for a reconciliation naming no olderThanHours to remove it. */
export const RECONCILE_DEFAULT_RETENTION_HOURS = 24;

export const storeReconcile = {
  name: "lomi_store_reconcile",
  kind: "control",
  title: "Reconcile the receipt store",
  description: `Deliberate maintenance, approved by the user in Lomi: removes settled receipts older than olderThanHours (default ${RECONCILE_DEFAULT_RETENTION_HOURS}) and expired retry epochs no receipt refers to. Unfinished and outcome_unknown operations are kept unless named in forgetOperationIds (inspect the real resources first). The first call asks the user and answers awaiting_user; call again with the same arguments once approved.`,
  hints: changes({ destructive: true, idempotent: false }),
  input: z.strictObject({
    olderThanHours: z
      .number()
      .int()
      .min(0)
      .max(8760)
      .describe(
        `Remove settled receipts whose last change (updatedAt) is at least this many hours old on Lomi's clock: 0-8760, default ${RECONCILE_DEFAULT_RETENTION_HOURS}.`,
      )
      .optional(),
    forgetOperationIds: z
      .array(field.operationId)
      .max(RECONCILE_MAX_NAMED)
      .describe(
        `Operations of this pairing to forget whatever their state and age (at most ${RECONCILE_MAX_NAMED} operationIds): unfinished or outcome_unknown ones once you have inspected the real resources, since without it they are kept. An ID the store does not hold is ignored.`,
      )
      .optional(),
  }),
  data: z.strictObject({
    status: z.enum(["awaiting_user", "completed"]),
    approvalId: id,
    removed: z
      .strictObject({
        receipts: z.number().int().describe("Receipts removed."),
        retryEpochs: z.number().int().describe("Expired retry epochs removed: those no remaining receipt refers to."),
        events: z.number().int().describe("Events removed with the receipts: one per state an operation entered, as lomi_events_read showed them."),
      })
      .nullable()
      .describe("What this reconciliation removed; null while it awaits the user."),
    kept: z
      .strictObject({
        receipts: z.number().int().describe("Receipts left in the store, every pairing's."),
        unfinished: z.number().int().describe("Of those, operations not settled yet."),
        outcomeUnknown: z.number().int().describe("Of those, operations in outcome_unknown."),
      })
      .nullable()
      .describe("The whole store afterwards (what lomi_store_status then shows); null while it awaits the user."),
  }),
} satisfies ObservationContract;
