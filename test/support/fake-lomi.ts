import { LomiError } from "../../protocol/errors.js";
import type { CheckReply, DispatchPermit, NativeProgress } from "../../protocol/native-bridge.js";
import type { NativeBridge, NativeTarget } from "../../reference-broker/native-bridge.js";

const notHere = (what: string) => () => Promise.reject(new LomiError("INTERNAL", `the engine's unit tests do not ${what}`));

/**
 * A scripted Lomi behind the NativeBridge port, for the engine's unit tests: it records what is
 * dispatched and asked to cancel, answers each dispatch, status and cancel with the progress a test
 * sets, and counts clock reads.
 */
export class FakeLomi implements NativeBridge {
  time = 1_000;
  clockReads = 0;
  /** Whether the check's reply carries the time (bridge 1.1), or the engine must ask the clock. */
  nowOnCheck = true;
  checkRefusal: LomiError | undefined;
  dispatchAnswer: NativeProgress | LomiError = { phase: "running", effectState: "none" };
  statusAnswer: NativeProgress | LomiError = { phase: "running", effectState: "none" };
  cancelAnswer: NativeProgress = { phase: "settled", state: "cancelled", effectState: "none", result: null, error: null };
  readonly dispatched: Array<{ target: NativeTarget; permit: DispatchPermit }> = [];
  /** The operationIds Lomi was asked to cancel, in order. */
  readonly cancelled: string[] = [];

  async now(): Promise<number> {
    this.clockReads++;
    return this.time;
  }
  async check(): Promise<CheckReply> {
    if (this.checkRefusal) throw this.checkRefusal;
    return this.nowOnCheck ? { ok: true, now: this.time } : { ok: true };
  }
  async dispatch(target: NativeTarget, permit: DispatchPermit): Promise<NativeProgress> {
    this.dispatched.push({ target, permit });
    if (this.dispatchAnswer instanceof LomiError) throw this.dispatchAnswer;
    return this.dispatchAnswer;
  }
  async status(): Promise<NativeProgress> {
    if (this.statusAnswer instanceof LomiError) throw this.statusAnswer;
    return this.statusAnswer;
  }
  async cancel(operationId: string): Promise<NativeProgress> {
    this.cancelled.push(operationId);
    return this.cancelAnswer;
  }
  pairing = notHere("pair");
  workspaces = notHere("list workspaces");
  workspace = notHere("observe a workspace");
  panels = notHere("list panels");
  observe = notHere("observe");
  browserSnapshot = notHere("snapshot a browser");
  capture = notHere("capture");
  lease = notHere("lease");
  input = notHere("send input");
  askApproval = notHere("ask the user");
}
