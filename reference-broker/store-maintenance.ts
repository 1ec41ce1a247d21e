import { LomiError } from "../protocol/errors.js";
import type { DataOf, InputOf } from "../protocol/tool-contract.js";
import { RECONCILE_DEFAULT_RETENTION_HOURS, type storeReconcile } from "../protocol/tools/store.js";
import { canonicalJson } from "./fingerprint.js";
import type { BrokerCore } from "./broker.js";

const HOUR_MS = 3_600_000;

export async function storeStatus(core: BrokerCore) {
  return core.store.status(await core.native.now());
}

/**
 * lomi_store_reconcile: nothing is removed without the user's decision in Lomi, asked for these
 * exact arguments; the same call after approval does the work once.
 */
export async function reconcileStore(core: BrokerCore, pairingId: string, args: InputOf<typeof storeReconcile>): Promise<DataOf<typeof storeReconcile>> {
  const olderThanHours = args.olderThanHours ?? RECONCILE_DEFAULT_RETENTION_HOURS;
  const forget = [...new Set(args.forgetOperationIds ?? [])].sort();
  const detail = canonicalJson({ olderThanHours, forgetOperationIds: forget });
  const { approvalId, state } = await core.native.askApproval(pairingId, "store-reconcile", detail);
  if (state === "denied") throw new LomiError("USER_DENIED", "The user declined the store reconciliation in Lomi.", { approvalId });
  if (state === "pending") return { status: "awaiting_user", approvalId, removed: null, kept: null };
  const now = await core.native.now();
  const removed = core.store.reconcile(now, now - olderThanHours * HOUR_MS, pairingId, forget);
  const after = core.store.status(now);
  return {
    status: "completed",
    approvalId,
    removed,
    kept: { receipts: after.receipts.count, unfinished: after.unfinished, outcomeUnknown: after.outcomeUnknown },
  };
}
