import { terminalCreate, terminalRun } from "../../protocol/tools/terminal.js";
import { WorldState } from "../world-state.js";
import { recordEffect, type NativeContext, type NativeOperation, type NativeTool, type Settle } from "../native-tool.js";

export const nativeTerminalCreate: NativeTool<typeof terminalCreate.input> = {
  name: terminalCreate.name,
  args: terminalCreate.input,
  check(ctx, { ws, args }) {
    WorldState.requireInsideProject(args.cwdRelative);
    ctx.world.requireRevision(ws, args.expectedRevision);
  },
  start(ctx, op, settle) {
    const { panel, lease, domainRevision } = ctx.world.addTerminalPanel(op.ws, op.pairing, op.projectId, op.args.title, op.args.cwdRelative);
    recordEffect(ctx, op, { what: "terminal.created", panelId: panel.panelId, terminalSessionId: panel.terminalSessionId, domainRevision });
    settle(op, {
      state: "succeeded",
      effectState: "complete",
      result: { panelId: panel.panelId, terminalSessionId: panel.terminalSessionId, leaseId: lease.leaseId, domainRevision },
      error: null,
    });
  },
};

interface RunningProcess {
  /** The run that started it, typed as its arguments are: an interrupt finds the process by the bare operation. */
  op: NativeOperation<{ terminalSessionId: string }>;
  startedAt: number;
  durationMs: number;
  exitCode: number;
  ignoresInterrupt: boolean;
}
const processes = new WeakMap<NativeOperation, RunningProcess>();

/** Exit code a shell reports for a process ended by SIGINT. */
const INTERRUPTED_EXIT = 130;
const NOT_FOUND_EXIT = 127;

/** How a command ended: by itself, by Ctrl+C from lomi_operation_cancel, or by Ctrl+C from lomi_terminal_interrupt. */
type Ending = "exited" | "cancelled" | "interrupted";

function exit(ctx: NativeContext, op: NativeOperation<{ terminalSessionId: string }>, settle: Settle, exitCode: number, ending: Ending) {
  processes.delete(op);
  recordEffect(ctx, op, { what: "process.exited", terminalSessionId: op.args.terminalSessionId, exitCode });
  const result = { terminalSessionId: op.args.terminalSessionId, processStarted: true, exitCode };
  if (ending === "cancelled") {
    settle(op, { state: "cancelled", effectState: "partial", result, error: null });
  } else if (ending === "interrupted") {
    // Nobody cancelled the operation: running cannot become cancelled, so the interrupted command fails.
    settle(op, {
      state: "failed",
      effectState: "partial",
      result,
      error: { code: "NATIVE_FAILURE", message: `The command exited with code ${exitCode} after Ctrl+C.` },
    });
  } else if (exitCode === 0) {
    settle(op, { state: "succeeded", effectState: "complete", result, error: null });
  } else {
    settle(op, { state: "failed", effectState: "complete", result, error: { code: "NATIVE_FAILURE", message: `The command exited with code ${exitCode}.` } });
  }
}

export const nativeTerminalRun: NativeTool<typeof terminalRun.input> = {
  name: terminalRun.name,
  args: terminalRun.input,
  check(ctx, { ws, args }) {
    ctx.world.panelBySession(ws, args.terminalSessionId);
  },
  start(ctx, op, settle) {
    const script = ctx.commands[op.args.command];
    recordEffect(ctx, op, { what: "process.started", terminalSessionId: op.args.terminalSessionId, command: op.args.command });
    ctx.world.terminalOutput.write(op.args.terminalSessionId, `$ ${op.args.command}\n${script?.output ?? `${op.args.command}: command not found\n`}`);
    processes.set(op, {
      op,
      startedAt: ctx.clock.now(),
      durationMs: script?.durationMs ?? 0,
      exitCode: script ? script.exitCode : NOT_FOUND_EXIT,
      ignoresInterrupt: script?.ignoresInterrupt ?? false,
    });
    op.progress = { phase: "running", effectState: "partial" };
    nativeTerminalRun.tick?.(ctx, op, settle);
  },
  tick(ctx, op, settle) {
    const proc = processes.get(op);
    if (!proc) return;
    if (!ctx.world.workspace(op.ws.workspaceId).panels.some((p) => p.kind === "terminal" && p.terminalSessionId === op.args.terminalSessionId)) {
      processes.delete(op);
      settle(op, {
        state: "failed",
        effectState: "partial",
        result: { terminalSessionId: op.args.terminalSessionId, processStarted: true, exitCode: null },
        error: { code: "STALE_RUNTIME", message: "The terminal runtime restarted while the command ran." },
      });
      return;
    }
    if (ctx.clock.now() >= proc.startedAt + proc.durationMs) exit(ctx, op, settle, proc.exitCode, "exited");
  },
  cancel(ctx, op, settle) {
    const proc = processes.get(op);
    if (!proc) return;
    recordEffect(ctx, op, { what: "interrupt.sent", terminalSessionId: op.args.terminalSessionId });
    if (proc.ignoresInterrupt) {
      op.progress = { phase: "cancelling", effectState: "partial" };
    } else {
      exit(ctx, op, settle, INTERRUPTED_EXIT, "cancelled");
    }
  },
};

/** Ctrl+C reached the terminal while this command ran in it: it exits 130, unless it ignores interrupts. */
export function interruptCommand(ctx: NativeContext, op: NativeOperation, settle: Settle): void {
  const proc = processes.get(op);
  if (proc && !proc.ignoresInterrupt) exit(ctx, proc.op, settle, INTERRUPTED_EXIT, "interrupted");
}
