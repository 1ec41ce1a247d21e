import type { NativeContext, NativeOperation, Settle } from "../native-tool.js";

/** Records what happened natively for an operation: the ledger's ground truth. */
export function recordEffect(ctx: NativeContext, op: NativeOperation<unknown>, what: string, detail: Record<string, unknown>): void {
  ctx.ledger.record({ kind: "effect", operationId: op.operationId, tool: op.tool, pairingId: op.pairing.pairingId, detail: { what, ...detail } });
}

/** The tool's postcondition was confirmed. */
export function settleComplete(settle: Settle, op: NativeOperation<unknown>, result: Record<string, unknown>): void {
  settle(op as NativeOperation, { state: "succeeded", effectState: "complete", result, error: null });
}
