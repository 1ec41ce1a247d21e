import type { OperationEvent } from "../protocol/receipt.js";
import type { Receipt } from "../protocol/tools/mutations.js";
import type { StoredEvent, StoredReceipt } from "./receipt-store.js";

const iso = (ms: number) => new Date(ms).toISOString();

/** The receipt as the client sees it: no fingerprint, key hash or pairing. */
export function publicReceipt(r: StoredReceipt): Receipt {
  return {
    operationId: r.operationId,
    tool: r.tool,
    workspaceId: r.workspaceId,
    projectId: r.projectId,
    retryEpoch: r.retryEpoch,
    requestKey: r.requestKey,
    state: r.state,
    effectState: r.effectState,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    result: r.result,
    error: r.error,
  } as Receipt;
}

export function publicEvent(e: StoredEvent): OperationEvent {
  return { ...e, sequence: String(e.sequence), at: iso(e.at) };
}
