import type { z } from "zod";
import type {
  approvalReply,
  CheckReply,
  DispatchPermit,
  InputRequest,
  inputReply,
  leaseReply,
  NativeProgress,
  ObserveQuery,
  pairingReply,
  workspaceObservation,
} from "../protocol/native-bridge.js";
import type { browserSnapshot, browserSnapshotQuery } from "../protocol/tools/browser.js";
import type { captureQuery, nativeCapture } from "../protocol/tools/capture.js";
import type { RuntimeRef } from "../protocol/tools/input.js";
import type { panelList, workspaceList } from "../protocol/tools/workspace.js";
import type { NativeClock } from "./native-clock.js";

export interface NativeTarget {
  pairingId: string;
  tool: string;
  workspaceId: string;
  projectId: string;
  args: Record<string, unknown>;
}

/**
 * The port through which the broker reaches Lomi (docs/native-bridge.md). Every native effect goes
 * through `dispatch`; every reply has been validated against the bridge's zod schemas.
 * NATIVE_UNAVAILABLE means Lomi did not answer: for a dispatch or an input, it may have acted.
 */
export interface NativeBridge extends NativeClock {
  pairing(clientName: string, brokerInstanceId: string): Promise<z.infer<typeof pairingReply>>;
  workspaces(pairingId: string): Promise<z.infer<typeof workspaceList.data>>;
  workspace(pairingId: string, workspaceId: string): Promise<z.infer<typeof workspaceObservation>>;
  panels(pairingId: string, workspaceId: string): Promise<z.infer<typeof panelList.data>>;
  /** Any other read of native state, answered in the schema of the tool it serves. */
  observe<S extends z.ZodType>(pairingId: string, query: ObserveQuery, schema: S): Promise<z.infer<S>>;
  browserSnapshot(pairingId: string, query: z.infer<typeof browserSnapshotQuery>): Promise<z.infer<typeof browserSnapshot.data>>;
  capture(pairingId: string, query: z.infer<typeof captureQuery>): Promise<z.infer<typeof nativeCapture>>;
  lease(pairingId: string, workspaceId: string, runtime: RuntimeRef): Promise<z.infer<typeof leaseReply>>;
  input(request: InputRequest): Promise<z.infer<typeof inputReply>>;
  /** The native validators, no effect; the reply carries Lomi's time when Lomi tells it. */
  check(target: NativeTarget): Promise<CheckReply>;
  dispatch(target: NativeTarget, permit: DispatchPermit): Promise<NativeProgress>;
  status(operationId: string): Promise<NativeProgress>;
  askApproval(pairingId: string, subject: "store-reconcile", detail: string): Promise<z.infer<typeof approvalReply>>;
  cancel(operationId: string): Promise<NativeProgress>;
}
