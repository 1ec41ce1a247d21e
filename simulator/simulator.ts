import { worldSeedSchema, type LedgerEntry, type WorldSeed } from "../protocol/control-api.js";
import { LomiError } from "../protocol/errors.js";
import { describeIssues, specificIssues } from "../protocol/schema-issues.js";
import type { DispatchPermit, InputRequest, NativeProgress, ObserveQuery } from "../protocol/native-bridge.js";
import type { RuntimeRef } from "../protocol/tools/input.js";
import { seededRandom, type Random } from "../protocol/ports.js";
import { Approvals } from "./approvals.js";
import { Decisions } from "./decisions.js";
import type { z } from "zod";
import type { browserSnapshotQuery } from "../protocol/tools/browser.js";
import type { captureQuery } from "../protocol/tools/capture.js";
import { BackgroundWork } from "./background-work.js";
import { BrowserRuntimes } from "./browser/browser-runtimes.js";
import { capturePanel } from "./capture/panel-capture.js";
import type { FaultAction } from "./faults.js";
import { FaultPlan } from "./faults.js";
import { FileWorld } from "./files/file-world.js";
import { Ledger } from "./ledger.js";
import type { NativeContext, NativeOperation, NativeTool, Settle, Target } from "./native-tool.js";
import { RuntimeIo } from "./runtime-io.js";
import { runtimeKey } from "./leases.js";
import { NATIVE_TOOLS } from "./tools/index.js";
import { clockFactory, type ClockFactory, type LomiClock } from "./lomi-clock.js";
import { WorldState, type WorkspaceState } from "./world-state.js";

export interface DispatchRequest {
  permit: DispatchPermit;
  pairingId: string;
  tool: string;
  workspaceId: string;
  projectId: string;
  args: Record<string, unknown>;
}

/** What a dispatch answers, and whether the reply must be lost on the way back (a fault). */
export interface DispatchOutcome {
  progress: NativeProgress;
  loseReply: boolean;
}

/**
 * A simulated Lomi: world state, the user, faults, and the effect ledger, behind the native bridge
 * (what a broker calls) and the control API (what a harness calls). Both are plain methods here;
 * simulator/handlers.ts puts them on HTTP.
 */
export class Simulator {
  readonly clock: LomiClock;
  readonly ledger: Ledger;
  readonly world: WorldState;
  readonly approvals: Approvals;
  readonly files: FileWorld;
  private readonly random: Random;
  private readonly faults = new FaultPlan();
  private readonly operations = new Map<string, NativeOperation>();
  private readonly decisions: Decisions;
  private readonly ctx: NativeContext;
  private readonly background = new BackgroundWork();
  private readonly io: RuntimeIo;

  /** The virtual clock by default: the harness jumps it, and the same seed replays the same run. */
  constructor(seed: WorldSeed, randomSeed: number, clock: ClockFactory = clockFactory("virtual")) {
    const world = worldSeedSchema.parse(seed);
    this.clock = clock(Date.parse(world.clockStart));
    this.ledger = new Ledger(this.clock);
    this.random = seededRandom(randomSeed);
    this.world = new WorldState(world, this.random);
    this.approvals = new Approvals(this.random);
    this.decisions = new Decisions(this.settle);
    const browsers = new BrowserRuntimes(this.random, this.background);
    this.files = new FileWorld(world.projectFiles, this.random);
    this.ctx = {
      world: this.world,
      ledger: this.ledger,
      clock: this.clock,
      random: this.random,
      commands: world.commands,
      decisions: this.decisions,
      browsers,
      files: this.files,
    };
    this.io = new RuntimeIo(this.ctx, (terminalSessionId) => this.runningCommandIn(terminalSessionId), this.settle);
  }

  // Native bridge ---------------------------------------------------------------------------------

  now(): number {
    return this.clock.now();
  }

  /** A new broker instance behind a pairing does not inherit the leases of the one before it. */
  pairing(clientName: string, brokerInstanceId?: string) {
    const p = this.world.requestPairing(clientName);
    if (brokerInstanceId) this.world.leases.bindInstance(p.pairingId, brokerInstanceId);
    return { pairingId: p.pairingId, state: p.state };
  }

  observeWorkspaces(pairingId: string) {
    const pairing = this.world.approvedPairing(pairingId);
    return {
      workspaces: [...this.world.workspaces.values()].map((w) => ({
        workspaceId: w.workspaceId,
        name: w.name,
        approved: pairing.workspaceIds.includes(w.workspaceId),
        domainRevision: w.domainRevision.toString(),
      })),
    };
  }

  observeWorkspace(pairingId: string, workspaceId: string) {
    const ws = this.world.approvedWorkspace(this.world.approvedPairing(pairingId), workspaceId);
    return { workspaceId, projects: ws.projects, domainRevision: ws.domainRevision.toString() };
  }

  observePanels(pairingId: string, workspaceId: string) {
    this.tick();
    const ws = this.world.approvedWorkspace(this.world.approvedPairing(pairingId), workspaceId);
    return {
      workspaceId,
      domainRevision: ws.domainRevision.toString(),
      panels: ws.panels.map((p) => ({ ...p })),
    };
  }

  observeTerminalOutput(pairingId: string, query: Extract<ObserveQuery, { kind: "terminal-output" }>) {
    return this.observeIn(pairingId, query.workspaceId, (ws) => {
      this.world.panelBySession(ws, query.terminalSessionId);
      return { terminalSessionId: query.terminalSessionId, ...this.world.terminalOutput.read(query.terminalSessionId, query.cursor, query.limit) };
    });
  }

  acquireLease(pairingId: string, workspaceId: string, runtime: RuntimeRef) {
    this.tick();
    return this.io.acquireLease(pairingId, workspaceId, runtime);
  }

  /** Ordered input: refused with nothing sent, or sent at once. Of the faults, only a lost reply applies to input. */
  input(request: InputRequest) {
    this.tick();
    return this.io.input(request, () => this.faults.take(request.tool, ["lose-reply"]) === "lose-reply");
  }

  askApproval(pairingId: string, subject: string, detail: string) {
    this.world.approvedPairing(pairingId);
    return this.approvals.ask(pairingId, subject, detail);
  }

  /** A read of an approved workspace's native state, once time-driven work has moved along. */
  observeIn<T>(pairingId: string, workspaceId: string, read: (ws: WorkspaceState) => T): T {
    this.tick();
    return read(this.world.approvedWorkspace(this.world.approvedPairing(pairingId), workspaceId));
  }

  observeBrowserSnapshot(pairingId: string, query: z.infer<typeof browserSnapshotQuery>) {
    const ws = this.world.approvedWorkspace(this.world.approvedPairing(pairingId), query.workspaceId);
    return this.ctx.browsers.snapshot(ws, query);
  }

  observeCapture(pairingId: string, query: z.infer<typeof captureQuery>) {
    this.tick();
    const ws = this.world.approvedWorkspace(this.world.approvedPairing(pairingId), query.workspaceId);
    return capturePanel(this.ctx, ws, query.panelId);
  }

  /** Resolves once work that takes no virtual time (page loads) has finished; requests wait for it. */
  idle(): Promise<void> {
    return this.background.idle();
  }

  /** Runs the native validators without any effect. */
  check(request: Omit<DispatchRequest, "permit">): void {
    this.resolve(request);
  }

  dispatch(request: DispatchRequest): DispatchOutcome {
    const { operationId } = request.permit;
    const pairing = this.world.pairings.get(request.pairingId);
    const pairingId = pairing?.pairingId ?? request.pairingId;
    if (this.operations.has(operationId)) {
      this.ledger.record({ kind: "replay", operationId, tool: request.tool, pairingId, detail: { args: request.args, permit: request.permit } });
      throw new LomiError("REPLAY_REFUSED", `Permit for operation ${operationId} was already dispatched; a second dispatch is a replay.`, { operationId });
    }
    this.ledger.record({ kind: "dispatch", operationId, tool: request.tool, pairingId, detail: { args: request.args, permit: request.permit } });
    let tool: NativeTool;
    let target: Target<Record<string, unknown>>;
    try {
      ({ tool, target } = this.resolve(request));
    } catch (error) {
      if (!(error instanceof LomiError)) throw error;
      // Validators run again at dispatch: the world may have moved since the check. Nothing happened.
      const rejected = this.rejectedOperation(request, error);
      this.operations.set(operationId, rejected);
      return { progress: rejected.progress, loseReply: false };
    }
    const op: NativeOperation = {
      ...target,
      operationId,
      tool: request.tool,
      progress: { phase: "running", effectState: "none" },
      cancelRequested: false,
      held: false,
    };
    this.operations.set(operationId, op);
    const fault = this.faults.take(request.tool);
    this.applyFault(fault, tool, op);
    return { progress: op.progress, loseReply: fault === "lose-reply" };
  }

  status(operationId: string): NativeProgress {
    this.tick();
    return this.operations.get(operationId)?.progress ?? { phase: "unknown" };
  }

  cancel(operationId: string): NativeProgress {
    this.tick();
    const op = this.operations.get(operationId);
    if (!op) return { phase: "unknown" };
    if (op.progress.phase === "settled") return op.progress;
    this.ledger.record({ kind: "cancel-request", operationId, tool: op.tool, pairingId: op.pairing.pairingId, detail: {} });
    op.cancelRequested = true;
    if (op.held) {
      op.progress = { phase: "cancelling", effectState: "none" };
    } else if (!this.decisions.withdraw(op)) {
      NATIVE_TOOLS.get(op.tool)?.cancel?.(this.ctx, op, this.settle);
    }
    return op.progress;
  }

  // Control API -----------------------------------------------------------------------------------

  decide(clientName: string, decision: "approve" | "deny", workspaceIds?: string[]) {
    return this.world.decide(clientName, decision, workspaceIds);
  }

  pendingDecisions() {
    return this.decisions.list();
  }

  /** The user answers the decision Lomi shows for an operation waiting in awaiting_user. */
  decideOperation(operationId: string, decision: "approve" | "deny"): NativeProgress {
    return this.decisions.decide(operationId, decision).progress;
  }

  armFault(action: FaultAction, tool?: string): string {
    const faultId = this.random.id("fault-");
    this.faults.arm(faultId, action, tool);
    return faultId;
  }

  /** Ends a held dispatch: the effect happens now, fails, or the pending cancellation is honoured. */
  release(operationId: string, outcome: "complete" | "fail" | "honour-cancel"): NativeProgress {
    const op = this.operations.get(operationId);
    if (!op || !op.held) throw new LomiError("NOT_FOUND", `No held dispatch for operation ${operationId}.`, { operationId });
    op.held = false;
    if (outcome === "complete") {
      op.progress = { phase: "running", effectState: "none" };
      NATIVE_TOOLS.get(op.tool)!.start(this.ctx, op, this.settle);
    } else if (outcome === "fail") {
      this.settle(op, {
        state: "failed",
        effectState: "none",
        result: null,
        error: { code: "NATIVE_FAILURE", message: "Lomi failed the dispatch before any effect." },
      });
    } else {
      if (!op.cancelRequested) throw new LomiError("INVALID_ARGUMENT", `Operation ${operationId} has no cancellation to honour.`, { operationId });
      this.settle(op, { state: "cancelled", effectState: "none", result: null, error: null });
    }
    return op.progress;
  }

  advanceClock(ms: number): void {
    this.clock.advance(ms);
    this.tick();
  }

  /** The user changes the layout in Lomi: every observed domainRevision is now stale. */
  changeLayout(workspaceId: string): string {
    return this.world.bumpRevision(this.world.workspace(workspaceId));
  }

  restartRuntime(panelId: string): { terminalSessionId: string } | { browserGeneration: string } | { generation: string } {
    const { panel } = this.world.panelById(panelId);
    const restarted = panel.kind === "browser" ? { browserGeneration: this.ctx.browsers.restart(panel) } : this.world.restartRuntime(panelId);
    this.tick();
    return restarted;
  }

  /** Another client of Lomi takes the runtime's lease (Lomi's own act, whichever broker serves that client): the holder's lease expires, taken over. */
  takeOverLease(clientName: string, runtime: RuntimeRef): { leaseId: string } {
    const { leaseId } = this.world.leases.grant(runtimeKey(runtime), this.world.requestPairing(clientName).pairingId);
    this.tick();
    return { leaseId };
  }

  ledgerEntries(): readonly LedgerEntry[] {
    return this.ledger.entries();
  }

  snapshot() {
    this.tick();
    return {
      now: this.clock.now(),
      workspaces: [...this.world.workspaces.values()].map((w) => ({
        workspaceId: w.workspaceId,
        domainRevision: w.domainRevision.toString(),
        open: !w.closed,
        panels: w.panels.map((p) => ({ ...p })),
      })),
      processes: [...this.operations.values()]
        .filter((op) => op.tool === "lomi_terminal_run" && !op.held && op.progress.phase !== "unknown")
        .map((op) => ({
          operationId: op.operationId,
          terminalSessionId: String(op.args.terminalSessionId),
          command: String(op.args.command),
          state: op.progress.phase === "settled" ? ("exited" as const) : ("running" as const),
          exitCode: op.progress.phase === "settled" && typeof op.progress.result?.exitCode === "number" ? op.progress.result.exitCode : null,
        })),
    };
  }

  // Internals -------------------------------------------------------------------------------------

  private resolve(request: Omit<DispatchRequest, "permit">): { tool: NativeTool; target: Target<Record<string, unknown>> } {
    const tool = NATIVE_TOOLS.get(request.tool);
    if (!tool) throw new LomiError("UNKNOWN_TOOL", `Lomi has no native tool ${request.tool}.`);
    const parsed = tool.args.safeParse(request.args);
    if (!parsed.success) {
      throw new LomiError("INVALID_ARGUMENT", `Native validation of ${request.tool}'s arguments ${describeIssues(parsed.error)}`, {
        field: specificIssues(parsed.error.issues)[0]?.path ?? "(root)",
      });
    }
    const pairing = this.world.approvedPairing(request.pairingId);
    const ws = this.world.approvedWorkspace(pairing, request.workspaceId);
    this.world.requireOpen(ws);
    this.world.project(ws, request.projectId);
    const target = { pairing, ws, projectId: request.projectId, args: parsed.data };
    tool.check(this.ctx, target);
    return { tool, target };
  }

  private runningCommandIn(terminalSessionId: string): NativeOperation | undefined {
    return [...this.operations.values()].find(
      (op) => op.tool === "lomi_terminal_run" && !op.held && op.progress.phase !== "settled" && op.args.terminalSessionId === terminalSessionId,
    );
  }

  private rejectedOperation(request: DispatchRequest, error: LomiError): NativeOperation {
    const pairing = this.world.pairings.get(request.pairingId) ?? { pairingId: request.pairingId, clientName: "", state: "denied" as const, workspaceIds: [] };
    const op: NativeOperation = {
      pairing,
      ws: this.world.workspaces.get(request.workspaceId) ?? {
        workspaceId: request.workspaceId,
        name: "",
        projects: [],
        approvalByDefault: false,
        domainRevision: 0n,
        panels: [],
      },
      projectId: request.projectId,
      args: request.args,
      operationId: request.permit.operationId,
      tool: request.tool,
      progress: { phase: "running", effectState: "none" },
      cancelRequested: false,
      held: false,
    };
    this.settle(op, { state: "failed", effectState: "none", result: null, error: { code: error.code, message: error.message } });
    return op;
  }

  private applyFault(fault: FaultAction | undefined, tool: NativeTool, op: NativeOperation): void {
    if (fault === "hold") {
      op.held = true;
      return;
    }
    if (fault === "fail") {
      this.settle(op, {
        state: "failed",
        effectState: "none",
        result: null,
        error: { code: "NATIVE_FAILURE", message: "Lomi failed the dispatch before any effect." },
      });
      return;
    }
    tool.start(this.ctx, op, this.settle);
  }

  private readonly settle: Settle = (op, s) => {
    if (op.progress.phase === "settled") return;
    op.progress = { phase: "settled", ...s };
    this.ledger.record({
      kind: "settle",
      operationId: op.operationId,
      tool: op.tool,
      pairingId: op.pairing.pairingId,
      detail: { state: s.state, error: s.error?.code ?? null },
      effectState: s.effectState,
    });
  };

  /** Moves time-driven work along; called before every read of native state. */
  private tick(): void {
    for (const op of this.operations.values()) {
      if (op.progress.phase === "settled" || op.held) continue;
      NATIVE_TOOLS.get(op.tool)?.tick?.(this.ctx, op, this.settle);
    }
  }
}
