import { LomiError } from "../protocol/errors.js";
import type { PendingDecision, UserDecision } from "../protocol/user-decisions.js";
import type { Ledger } from "./ledger.js";
import type { NativeOperation } from "./native-tool.js";

type Answer = (decision: UserDecision) => void;

/**
 * Native decisions shown in Lomi: an operation that needs the user waits in awaiting_user until the
 * simulated user approves or denies it by operationId (control API), or a cancel withdraws it.
 * Any native tool can ask; what an answer does is the tool's. Each step is in the ledger.
 */
export class UserDecisions {
  private readonly pending = new Map<string, { decision: PendingDecision; op: NativeOperation; answer: Answer }>();

  constructor(private readonly ledger: Ledger) {}

  ask(op: NativeOperation, question: string, subjects: string[], answer: Answer): void {
    const effectState = "effectState" in op.progress ? op.progress.effectState : "none";
    op.progress = { phase: "awaiting_user", effectState };
    const decision: PendingDecision = { operationId: op.operationId, tool: op.tool, workspaceId: op.ws.workspaceId, question, subjects };
    this.pending.set(op.operationId, { decision, op, answer });
    this.record(op, "asked", { question, subjects: subjects.join(", ") });
  }

  list(): PendingDecision[] {
    return [...this.pending.values()].map((p) => p.decision);
  }

  /** The user answers; the operation's tool goes on from there. */
  decide(operationId: string, decision: UserDecision): { operationId: string; decision: UserDecision } {
    const pending = this.pending.get(operationId);
    if (!pending) throw new LomiError("NOT_FOUND", `No decision is pending for operation ${operationId}.`, { operationId });
    this.pending.delete(operationId);
    this.record(pending.op, decision === "approve" ? "approved" : "denied", {});
    pending.answer(decision);
    return { operationId, decision };
  }

  /** A cancel takes the question back before the user answered; false when none was pending. */
  withdraw(op: NativeOperation): boolean {
    if (!this.pending.delete(op.operationId)) return false;
    this.record(op, "withdrawn", {});
    return true;
  }

  private record(op: NativeOperation, what: string, detail: Record<string, unknown>): void {
    this.ledger.record({ kind: "decision", operationId: op.operationId, tool: op.tool, pairingId: op.pairing.pairingId, detail: { what, ...detail } });
  }
}
