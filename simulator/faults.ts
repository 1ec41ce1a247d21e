import { FAULT_ACTIONS } from "../protocol/control-api.js";

export type FaultAction = (typeof FAULT_ACTIONS)[number];
interface ArmedFault {
  faultId: string;
  action: FaultAction;
  tool: string | undefined;
}

/** Faults a scenario arms; each applies once, to the next dispatch it matches. Kept apart from the checks. */
export class FaultPlan {
  private readonly armed: ArmedFault[] = [];

  arm(faultId: string, action: FaultAction, tool?: string): void {
    this.armed.push({ faultId, action, tool });
  }

  /** Takes the first fault armed for this tool (or for any tool), among the actions that apply to it. */
  take(tool: string, applicable: readonly FaultAction[] = FAULT_ACTIONS): FaultAction | undefined {
    const index = this.armed.findIndex((f) => (f.tool === undefined || f.tool === tool) && applicable.includes(f.action));
    if (index < 0) return undefined;
    const [fault] = this.armed.splice(index, 1);
    return fault?.action;
  }
}
