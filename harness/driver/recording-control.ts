import type { WorldSeed } from "../../protocol/control-api.js";
import type { FileContent } from "../../protocol/tools/files.js";
import type { RuntimeRef } from "../../protocol/tools/input.js";
import type { FaultKind } from "../history/format.js";
import { SimControl, type ControlFetch } from "../lomi/sim-control.js";

/** What the recording control tells its driver: a fault to record, and Lomi's clock when it moves or restarts. */
export interface ControlRecorder {
  fault(kind: FaultKind, detail: Record<string, unknown>): void;
  clockMoved(ms: number): void;
  worldReset(world: WorldSeed): void;
}

const DAY_MS = 24 * 3_600_000;

/**
 * The simulated Lomi's control API as the driver hands it out: every call that changes what Lomi
 * does (a fault armed, a decision, the clock, the world) is recorded in the history as it is made,
 * so an oracle reading the history knows what the harness did besides the agents' calls.
 * Reads (ledger, snapshot, files, decisions listed) change nothing and are not recorded.
 */
export class RecordingControl extends SimControl {
  constructor(
    baseUrl: string,
    private readonly recorder: ControlRecorder,
    fetcher?: ControlFetch,
  ) {
    super(baseUrl, fetcher);
  }

  override async reset(world: WorldSeed, seed: number) {
    const reply = await super.reset(world, seed);
    this.recorder.worldReset(world);
    this.recorder.fault("world-reset", { seed });
    return reply;
  }
  override async decide(clientName: string, decision: "approve" | "deny", workspaceIds?: string[]) {
    const reply = await super.decide(clientName, decision, workspaceIds);
    this.recorder.fault("pairing-decision", { agent: clientName, decision, ...(workspaceIds ? { workspaceIds } : {}) });
    return reply;
  }
  override async armFault(action: "hold" | "fail" | "lose-reply", tool?: string) {
    const faultId = await super.armFault(action, tool);
    this.recorder.fault(action, { ...(tool ? { tool } : {}), faultId });
    return faultId;
  }
  override async release(operationId: string, outcome: "complete" | "fail" | "honour-cancel") {
    const reply = await super.release(operationId, outcome);
    this.recorder.fault("release", { operationId, outcome });
    return reply;
  }
  override async advanceClock(ms: number) {
    const reply = await super.advanceClock(ms);
    this.recorder.clockMoved(ms);
    this.recorder.fault(ms >= DAY_MS ? "clock-jump" : "clock-advance", { ms });
    return reply;
  }
  override async changeLayout(workspaceId: string) {
    const reply = await super.changeLayout(workspaceId);
    this.recorder.fault("layout-change", { workspaceId });
    return reply;
  }
  override async decideApproval(approvalId: string, decision: "approve" | "deny") {
    const reply = await super.decideApproval(approvalId, decision);
    this.recorder.fault("user-decision", { approvalId, decision });
    return reply;
  }
  override async decideOperation(operationId: string, decision: "approve" | "deny") {
    const reply = await super.decideOperation(operationId, decision);
    this.recorder.fault("user-decision", { operationId, decision });
    return reply;
  }
  override async restartRuntime(panelId: string) {
    const reply = await super.restartRuntime(panelId);
    this.recorder.fault("runtime-restart", { panelId });
    return reply;
  }
  override async takeOverLease(clientName: string, runtime: RuntimeRef) {
    const reply = await super.takeOverLease(clientName, runtime);
    this.recorder.fault("world-change", { what: "another client of Lomi takes over a runtime's lease", clientName, runtime });
    return reply;
  }
  override async otherProgramWrites(projectId: string, path: string, content: FileContent) {
    const reply = await super.otherProgramWrites(projectId, path, content);
    this.recorder.fault("world-change", { what: "another program writes a file", projectId, path });
    return reply;
  }
  override async protectFile(projectId: string, path: string) {
    const reply = await super.protectFile(projectId, path);
    this.recorder.fault("world-change", { what: "a file is made read-only", projectId, path });
    return reply;
  }
  override async userTypes(projectId: string, path: string, text: string) {
    const reply = await super.userTypes(projectId, path, text);
    this.recorder.fault("world-change", { what: "the user types in the editor", projectId, path });
    return reply;
  }
}
