import { LomiError } from "../protocol/errors.js";
import type { InputRequest, NativeInputPayload } from "../protocol/native-bridge.js";
import type { RuntimeRef } from "../protocol/tools/input.js";
import type { AndroidDevice } from "./android-devices.js";
import { runtimeKey } from "./leases.js";
import type { NativeContext, NativeOperation, Settle } from "./native-tool.js";
import { interruptCommand } from "./tools/terminal.js";
import type { WorkspaceState } from "./world-state.js";

/** Which runtime and which payloads each ordered-input tool takes natively. */
const ACCEPTS: Record<InputRequest["tool"], { runtime: RuntimeRef["kind"]; payloads: ReadonlyArray<NativeInputPayload["kind"]> }> = {
  lomi_terminal_input: { runtime: "terminal", payloads: ["text"] },
  lomi_terminal_interrupt: { runtime: "terminal", payloads: ["interrupt"] },
  lomi_android_input: { runtime: "android", payloads: ["text", "tap", "key"] },
};

/**
 * Lomi's side of leases and ordered input. Input is either refused with nothing
 * sent or sent at once and recorded in the ledger (a `dispatch` and its `effect`) under a dispatchId.
 * Lomi keeps no input history: deduplicating by inputSequence is the broker's job.
 */
export class RuntimeIo {
  constructor(
    private readonly ctx: NativeContext,
    /** The command running in a terminal session, if any: what Ctrl+C reaches. */
    private readonly foreground: (terminalSessionId: string) => NativeOperation | undefined,
    private readonly settle: Settle,
  ) {}

  acquireLease(pairingId: string, workspaceId: string, runtime: RuntimeRef): { leaseId: string } {
    const pairing = this.ctx.world.approvedPairing(pairingId);
    this.requireRuntime(this.ctx.world.approvedWorkspace(pairing, workspaceId), runtime);
    return { leaseId: this.ctx.world.leases.grant(runtimeKey(runtime), pairing.pairingId).leaseId };
  }

  /** `loseReply`: a fault asks for the reply to be lost after the input was sent. */
  input(request: InputRequest, takeFault: () => boolean): { dispatchId: string; loseReply: boolean } {
    const { world, ledger } = this.ctx;
    const pairing = world.approvedPairing(request.pairingId);
    const device = this.requireRuntime(world.approvedWorkspace(pairing, request.workspaceId), request.runtime);
    world.leases.require(request.leaseId, pairing.pairingId, runtimeKey(request.runtime));
    const accepts = ACCEPTS[request.tool];
    if (request.runtime.kind !== accepts.runtime || !accepts.payloads.includes(request.input.kind)) {
      throw new LomiError("INVALID_ARGUMENT", `${request.tool} does not send ${request.input.kind} input to a ${request.runtime.kind} runtime.`, {
        field: "input",
      });
    }
    if (device && request.input.kind === "tap") world.android.requireOnScreen(device, request.input.x, request.input.y);

    const dispatchId = this.ctx.random.id("input-");
    const base = { operationId: dispatchId, tool: request.tool, pairingId: pairing.pairingId };
    const { pairingId: _pairing, tool: _tool, ...args } = request;
    ledger.record({ ...base, kind: "dispatch", detail: { args } });
    const where =
      request.runtime.kind === "terminal"
        ? { terminalSessionId: request.runtime.terminalSessionId }
        : { panelId: request.runtime.panelId, generation: request.runtime.generation };
    const effect = { leaseId: request.leaseId, inputSequence: request.inputSequence, ...where };
    if (request.runtime.kind === "android") {
      ledger.record({ ...base, kind: "effect", detail: { what: "android.input", ...effect, input: request.input } });
    } else if (request.input.kind === "interrupt") {
      const command = this.foreground(request.runtime.terminalSessionId);
      ledger.record({ ...base, kind: "effect", detail: { what: "interrupt.sent", ...effect, commandOperationId: command?.operationId ?? null } });
      world.terminalOutput.write(request.runtime.terminalSessionId, "^C\n");
      if (command) interruptCommand(this.ctx, command, this.settle);
    } else if (request.input.kind === "text") {
      ledger.record({ ...base, kind: "effect", detail: { what: "input.sent", ...effect, text: request.input.text } });
      world.terminalOutput.write(request.runtime.terminalSessionId, request.input.text);
    }
    return { dispatchId, loseReply: takeFault() };
  }

  /** The exact current runtime, or STALE_RUNTIME for one that restarted; an Android runtime's device. */
  private requireRuntime(ws: WorkspaceState, runtime: RuntimeRef): AndroidDevice | undefined {
    if (runtime.kind === "android") return this.ctx.world.android.current(ws.panels, runtime.panelId, runtime.generation);
    this.ctx.world.panelBySession(ws, runtime.terminalSessionId);
    return undefined;
  }
}
