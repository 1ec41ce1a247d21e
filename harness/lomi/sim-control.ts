import type { z } from "zod";
import {
  approvalsReply,
  CONTROL_PATHS,
  decisionsReply,
  ledgerReply,
  pairingsReply,
  restartRuntimeReply,
  takeOverLeaseReply,
  snapshotReply,
  faultReply,
  type WorldSeed,
} from "../../protocol/control-api.js";
import { filesSnapshotReply } from "../../protocol/files-control.js";
import { nativeErrorSchema } from "../../protocol/native-bridge.js";
import type { FileContent } from "../../protocol/tools/files.js";
import type { RuntimeRef } from "../../protocol/tools/input.js";
import { LomiError } from "../../protocol/errors.js";
import { harnessFault } from "../harness-error.js";

/** How the control client reaches the simulated Lomi: the global fetch, or its in-process routes. */
export type ControlFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<Pick<Response, "ok" | "status" | "json">>;

/** The harness's client of the simulator's control API (in-process, or over HTTP). */
export class SimControl {
  constructor(
    readonly baseUrl: string,
    private readonly fetcher: ControlFetch = fetch,
  ) {}

  private async request<S extends z.ZodType>(method: "GET" | "POST", path: string, body: unknown, schema?: S): Promise<z.infer<S>> {
    let response: Awaited<ReturnType<ControlFetch>>;
    let payload: unknown;
    try {
      response = await this.fetcher(this.baseUrl + path, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
      });
      payload = await response.json();
    } catch (error) {
      // The harness's own simulator did not answer: nothing the broker did, so no rule is blamed.
      throw harnessFault(`the harness's simulated Lomi did not answer ${method} ${path} at ${this.baseUrl}: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const e = nativeErrorSchema.safeParse(payload);
      if (e.success) throw new LomiError(e.data.error.code, `simulator control ${path}: ${e.data.error.message}`);
      throw new LomiError("INTERNAL", `simulator control ${path}: HTTP ${response.status}`);
    }
    return (schema ? schema.parse(payload) : payload) as z.infer<S>;
  }

  reset(world: WorldSeed, seed: number) {
    return this.request("POST", CONTROL_PATHS.reset, { world, seed });
  }
  snapshot() {
    return this.request("GET", CONTROL_PATHS.snapshot, undefined, snapshotReply);
  }
  async ledger() {
    return (await this.request("GET", CONTROL_PATHS.ledger, undefined, ledgerReply)).entries;
  }
  async pairings() {
    return (await this.request("GET", CONTROL_PATHS.pairings, undefined, pairingsReply)).pairings;
  }
  decide(clientName: string, decision: "approve" | "deny", workspaceIds?: string[]) {
    return this.request("POST", CONTROL_PATHS.decide, { clientName, decision, ...(workspaceIds ? { workspaceIds } : {}) });
  }
  async armFault(action: "hold" | "fail" | "lose-reply", tool?: string) {
    return (await this.request("POST", CONTROL_PATHS.faults, { action, ...(tool ? { tool } : {}) }, faultReply)).faultId;
  }
  release(operationId: string, outcome: "complete" | "fail" | "honour-cancel") {
    return this.request("POST", CONTROL_PATHS.release, { operationId, outcome });
  }
  advanceClock(ms: number) {
    return this.request("POST", CONTROL_PATHS.advanceClock, { ms });
  }
  changeLayout(workspaceId: string) {
    return this.request("POST", CONTROL_PATHS.layoutChange, { workspaceId });
  }
  async approvals() {
    return (await this.request("GET", CONTROL_PATHS.approvals, undefined, approvalsReply)).approvals;
  }
  decideApproval(approvalId: string, decision: "approve" | "deny") {
    return this.request("POST", CONTROL_PATHS.decideApproval, { approvalId, decision });
  }
  /** The decisions Lomi is showing the user, one per operation waiting in awaiting_user. */
  async decisions() {
    return (await this.request("GET", CONTROL_PATHS.decisions, undefined, decisionsReply)).decisions;
  }
  decideOperation(operationId: string, decision: "approve" | "deny") {
    return this.request("POST", CONTROL_PATHS.decideOperation, { operationId, decision });
  }
  restartRuntime(panelId: string) {
    return this.request("POST", CONTROL_PATHS.restartRuntime, { panelId }, restartRuntimeReply);
  }
  takeOverLease(clientName: string, runtime: RuntimeRef) {
    return this.request("POST", CONTROL_PATHS.takeOverLease, { clientName, runtime }, takeOverLeaseReply);
  }
  files() {
    return this.request("GET", CONTROL_PATHS.files, undefined, filesSnapshotReply);
  }
  otherProgramWrites(projectId: string, path: string, content: FileContent) {
    return this.request("POST", CONTROL_PATHS.otherProgramWrite, { projectId, path, content });
  }
  protectFile(projectId: string, path: string) {
    return this.request("POST", CONTROL_PATHS.protectFile, { projectId, path });
  }
  userTypes(projectId: string, path: string, text: string) {
    return this.request("POST", CONTROL_PATHS.editorType, { projectId, path, text });
  }
}
