import type { z } from "zod";
import { LomiError, messageOf } from "../protocol/errors.js";
import {
  approvalReply,
  checkReply,
  clockReply,
  inputReply,
  leaseReply,
  NATIVE_PATHS,
  nativeErrorSchema,
  nativeProgress,
  observeReply,
  pairingReply,
  type CheckReply,
  type DispatchPermit,
  type InputRequest,
  type NativeProgress,
  type ObserveQuery,
} from "../protocol/native-bridge.js";
import { browserSnapshot, type browserSnapshotQuery } from "../protocol/tools/browser.js";
import { nativeCapture, type captureQuery } from "../protocol/tools/capture.js";
import type { RuntimeRef } from "../protocol/tools/input.js";
import { panelList, workspaceList } from "../protocol/tools/workspace.js";
import { workspaceObservation } from "../protocol/native-bridge.js";

import { httpPost, type Fetch, type NativeReply } from "./http-post.js";
import type { NativeBridge, NativeTarget } from "./native-bridge.js";

export type { Fetch } from "./http-post.js";

/** The native bridge over HTTP + JSON: the reference broker's way to Lomi, in another process or this one. */
export class NativeClient implements NativeBridge {
  constructor(
    private readonly baseUrl: string,
    private readonly fetchImpl: Fetch = httpPost,
  ) {}

  private async call<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    let response: NativeReply;
    try {
      response = await this.fetchImpl(this.baseUrl + path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new LomiError("NATIVE_UNAVAILABLE", `Lomi did not answer ${path}: ${messageOf(error)}`);
    }
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const parsed = nativeErrorSchema.safeParse(payload);
      if (parsed.success) throw new LomiError(parsed.data.error.code, parsed.data.error.message, parsed.data.error.details);
      throw new LomiError("NATIVE_FAILURE", `Lomi answered ${path} with HTTP ${response.status}.`);
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) throw new LomiError("NATIVE_FAILURE", `Lomi's answer to ${path} does not match the bridge schema.`);
    return parsed.data;
  }

  async now(): Promise<number> {
    return (await this.call(NATIVE_PATHS.clock, {}, clockReply)).now;
  }

  pairing(clientName: string, brokerInstanceId: string) {
    return this.call(NATIVE_PATHS.pairing, { clientName, brokerInstanceId }, pairingReply);
  }

  async workspaces(pairingId: string) {
    return workspaceList.data.parse(await this.call(NATIVE_PATHS.observe, { pairingId, query: { kind: "workspaces" } }, observeReply));
  }

  async workspace(pairingId: string, workspaceId: string) {
    return workspaceObservation.parse(await this.call(NATIVE_PATHS.observe, { pairingId, query: { kind: "workspace", workspaceId } }, observeReply));
  }

  async panels(pairingId: string, workspaceId: string) {
    return panelList.data.parse(await this.call(NATIVE_PATHS.observe, { pairingId, query: { kind: "panels", workspaceId } }, observeReply));
  }

  /** Any other read of native state, answered in the schema of the tool it serves. */
  async observe<S extends z.ZodType>(pairingId: string, query: ObserveQuery, schema: S): Promise<z.infer<S>> {
    return schema.parse(await this.call(NATIVE_PATHS.observe, { pairingId, query }, observeReply));
  }

  async browserSnapshot(pairingId: string, query: z.infer<typeof browserSnapshotQuery>) {
    return browserSnapshot.data.parse(await this.call(NATIVE_PATHS.observe, { pairingId, query }, observeReply));
  }

  async capture(pairingId: string, query: z.infer<typeof captureQuery>) {
    return nativeCapture.parse(await this.call(NATIVE_PATHS.observe, { pairingId, query }, observeReply));
  }

  lease(pairingId: string, workspaceId: string, runtime: RuntimeRef) {
    return this.call(NATIVE_PATHS.lease, { pairingId, workspaceId, runtime }, leaseReply);
  }

  /** Sends one ordered input; NATIVE_UNAVAILABLE means Lomi may or may not have received it. */
  input(request: InputRequest) {
    return this.call(NATIVE_PATHS.input, request, inputReply);
  }

  check(target: NativeTarget): Promise<CheckReply> {
    return this.call(NATIVE_PATHS.check, { ...target, withNow: true }, checkReply);
  }

  /** NATIVE_UNAVAILABLE here means the reply was lost: the effect may or may not have happened. */
  dispatch(target: NativeTarget, permit: DispatchPermit): Promise<NativeProgress> {
    return this.call(NATIVE_PATHS.dispatch, { ...target, permit }, nativeProgress);
  }

  status(operationId: string): Promise<NativeProgress> {
    return this.call(NATIVE_PATHS.status, { operationId }, nativeProgress);
  }

  askApproval(pairingId: string, subject: "store-reconcile", detail: string) {
    return this.call(NATIVE_PATHS.approval, { pairingId, subject, detail }, approvalReply);
  }

  cancel(operationId: string): Promise<NativeProgress> {
    return this.call(NATIVE_PATHS.cancel, { operationId }, nativeProgress);
  }
}
