import { LomiError } from "../protocol/errors.js";
import type { Random } from "../protocol/ports.js";

export interface Approval {
  approvalId: string;
  pairingId: string;
  subject: string;
  detail: string;
  state: "pending" | "approved" | "denied" | "spent";
}

/** Decisions the simulated user makes about things that are not operations (store maintenance). */
export class Approvals {
  private readonly list: Approval[] = [];
  constructor(private readonly random: Random) {}

  /** The open approval for this request, or a new pending one; an approved one is spent by answering. */
  ask(pairingId: string, subject: string, detail: string): { approvalId: string; state: "pending" | "approved" | "denied" } {
    let approval = this.list.find((a) => a.pairingId === pairingId && a.subject === subject && a.detail === detail && a.state !== "spent");
    if (!approval) {
      approval = { approvalId: this.random.id("approval-"), pairingId, subject, detail, state: "pending" };
      this.list.push(approval);
    }
    const state = approval.state as "pending" | "approved" | "denied";
    if (approval.state === "approved") approval.state = "spent";
    return { approvalId: approval.approvalId, state };
  }

  decide(approvalId: string, decision: "approve" | "deny"): Approval {
    const approval = this.list.find((a) => a.approvalId === approvalId);
    if (!approval || approval.state !== "pending") throw new LomiError("NOT_FOUND", `No pending approval ${approvalId}.`, { field: "approvalId" });
    approval.state = decision === "approve" ? "approved" : "denied";
    return approval;
  }

  all(): readonly Approval[] {
    return this.list;
  }
}
