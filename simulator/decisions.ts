import { LomiError } from "../protocol/errors.js";
import type { NativeOperation, Settle } from "./native-tool.js";

/** What the operation had done when it asked: a denial or a withdrawal leaves exactly that. */
const effectsSoFar = (op: NativeOperation) => ("effectState" in op.progress ? op.progress.effectState : "none");

interface Pending {
  op: NativeOperation;
  question: string;
  proceed: () => void;
}

/**
 * The decisions Lomi shows the user, one per operation waiting in awaiting_user. Any native tool asks
 * here; the user (the control API) approves, which lets the work go on, or denies, which settles the
 * operation failed with USER_DENIED and the effects it had when it asked (none, for a question asked
 * before any work).
 */
export class Decisions {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly settle: Settle) {}

  /** The operation waits for the user; `proceed` runs the work once the user approves. */
  ask(op: NativeOperation, question: string, proceed: () => void): void {
    op.progress = { phase: "awaiting_user", effectState: effectsSoFar(op) };
    this.pending.set(op.operationId, { op, question, proceed });
  }

  list(): Array<{ operationId: string; tool: string; question: string }> {
    return [...this.pending.values()].map(({ op, question }) => ({ operationId: op.operationId, tool: op.tool, question }));
  }

  decide(operationId: string, decision: "approve" | "deny"): NativeOperation {
    const pending = this.pending.get(operationId);
    if (!pending) throw new LomiError("NOT_FOUND", `Lomi shows no decision for operation ${operationId}.`, { operationId });
    this.pending.delete(operationId);
    const { op } = pending;
    const effectState = effectsSoFar(op);
    if (decision === "deny") {
      this.settle(op, {
        state: "failed",
        effectState,
        result: null,
        error: { code: "USER_DENIED", message: `The user denied this in Lomi: ${pending.question}` },
      });
    } else {
      op.progress = { phase: "running", effectState };
      pending.proceed();
    }
    return op;
  }

  /** A cancellation withdraws the question: the operation settles cancelled with what it had done. */
  withdraw(op: NativeOperation): boolean {
    const pending = this.pending.get(op.operationId);
    if (!pending) return false;
    this.pending.delete(op.operationId);
    this.settle(op, { state: "cancelled", effectState: effectsSoFar(op), result: null, error: null });
    return true;
  }
}
