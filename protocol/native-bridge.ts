import { z } from "zod";
import { ERROR_CODES } from "./errors.js";
import { id } from "./fields.js";
import { fileObservations, fileQueries } from "./files-bridge.js";
import { effectStateSchema } from "./states.js";
import { chatRead } from "./tools/chat.js";
import { gitStatus } from "./tools/git.js";
import { settingsRead } from "./tools/settings.js";
import { browserSnapshot, browserSnapshotQuery } from "./tools/browser.js";
import { captureQuery, nativeCapture } from "./tools/capture.js";
import { inputSequence, keyInput, ORDERED_INPUT_NAMES, runtimeRef, tapInput, terminalRead, textInput } from "./tools/input.js";
import { connect, panelList, workspaceList } from "./tools/workspace.js";

// The native bridge: how a broker talks to Lomi (here, the simulator). HTTP + JSON, every call a POST
// with a JSON body; docs/native-bridge.md is the prose version of this file.
export const NATIVE_PATHS = {
  clock: "/native/v1/clock",
  pairing: "/native/v1/pairing",
  observe: "/native/v1/observe",
  check: "/native/v1/check",
  dispatch: "/native/v1/dispatch",
  status: "/native/v1/status",
  cancel: "/native/v1/cancel",
  approval: "/native/v1/approval",
  lease: "/native/v1/lease",
  input: "/native/v1/input",
} as const;

/** Any non-2xx answer of the bridge carries this body. */
export const nativeErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
});
export type NativeError = z.infer<typeof nativeErrorSchema>;

export const clockRequest = z.strictObject({});
export const clockReply = z.strictObject({ now: z.number().int().nonnegative() });

export const pairingRequest = z.strictObject({ clientName: z.string().min(1).max(200), brokerInstanceId: id });
export const PAIRING_STATES = ["pending", "approved", "denied"] as const;
export const pairingReply = z.strictObject({ pairingId: id, state: z.enum(PAIRING_STATES) });

export const observeRequest = z.strictObject({
  pairingId: id,
  query: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("workspaces") }),
    z.strictObject({ kind: z.literal("workspace"), workspaceId: id }),
    z.strictObject({ kind: z.literal("panels"), workspaceId: id }),
    z.strictObject({ kind: z.literal("settings"), workspaceId: id }),
    z.strictObject({ kind: z.literal("conversation"), workspaceId: id, conversationId: id }),
    z.strictObject({ kind: z.literal("repository"), workspaceId: id, projectId: id }),
    browserSnapshotQuery,
    captureQuery,
    z.strictObject({
      kind: z.literal("terminal-output"),
      workspaceId: id,
      terminalSessionId: id,
      cursor: z.number().int().nonnegative(),
      limit: z.number().int().positive(),
    }),
    ...fileQueries,
  ]),
});
export type ObserveQuery = z.infer<typeof observeRequest>["query"];
export const workspaceObservation = connect.data.pick({ workspaceId: true, projects: true, domainRevision: true });
export const observeReply = z.union([
  workspaceList.data,
  workspaceObservation,
  panelList.data,
  settingsRead.data,
  chatRead.data,
  gitStatus.data,
  browserSnapshot.data,
  nativeCapture,
  terminalRead.data,
  ...fileObservations,
]);

/** Names the durable receipt a dispatch belongs to; the simulator refuses a second dispatch under one. */
export const permitSchema = z.strictObject({ operationId: id, receiptKey: z.string().length(64), fingerprint: z.string().length(64) });
export type DispatchPermit = z.infer<typeof permitSchema>;

const target = { pairingId: id, tool: z.string(), workspaceId: id, projectId: id, args: z.record(z.string(), z.unknown()) };
/** `withNow`: the reply also carries Lomi's clock, saving an admission its own clock call (bridge 1.1; older brokers omit it). */
export const checkRequest = z.strictObject({ ...target, withNow: z.literal(true).optional() });
export const checkReply = z.strictObject({ ok: z.literal(true), now: z.number().int().nonnegative().optional() });
export type CheckReply = z.infer<typeof checkReply>;
export const dispatchRequest = z.strictObject({ ...target, permit: permitSchema });
export const operationRef = z.strictObject({ operationId: id });

/** The states Lomi settles an operation in (outcome_unknown is a broker's word for not knowing, never Lomi's). */
export const NATIVE_SETTLED_STATES = ["succeeded", "failed", "cancelled"] as const;
export type NativeSettledState = (typeof NATIVE_SETTLED_STATES)[number];

/** Where a dispatched operation stands natively. `unknown`: Lomi has no record of that permit. */
export const nativeProgress = z.discriminatedUnion("phase", [
  z.strictObject({ phase: z.enum(["running", "awaiting_user", "cancelling"]), effectState: effectStateSchema }),
  z.strictObject({
    phase: z.literal("settled"),
    state: z.enum(NATIVE_SETTLED_STATES),
    effectState: effectStateSchema,
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.strictObject({ code: z.enum(ERROR_CODES), message: z.string() }).nullable(),
  }),
  z.strictObject({ phase: z.literal("unknown") }),
]);
export type NativeProgress = z.infer<typeof nativeProgress>;

/**
 * A decision the user makes in Lomi about something that is not an operation (store maintenance).
 * Asking again with the same subject and detail answers the same approval; an approved one answers
 * "approved" once and is then spent.
 */
export const approvalRequest = z.strictObject({ pairingId: id, subject: z.enum(["store-reconcile"]), detail: z.string().max(4096) });
export const approvalReply = z.strictObject({ approvalId: id, state: z.enum(["pending", "approved", "denied"]) });

// Ordered input: no permit and no receipt. Lomi checks the lease and the runtime, and either refuses
// with nothing sent or sends the input and names the dispatch. Deduplication is the broker's.
export const leaseRequest = z.strictObject({ pairingId: id, workspaceId: id, runtime: runtimeRef });
export const leaseReply = z.strictObject({ leaseId: id });

export const nativeInputPayload = z.discriminatedUnion("kind", [textInput, z.strictObject({ kind: z.literal("interrupt") }), tapInput, keyInput]);
export type NativeInputPayload = z.infer<typeof nativeInputPayload>;
export const inputRequest = z.strictObject({
  pairingId: id,
  tool: z.enum(ORDERED_INPUT_NAMES),
  workspaceId: id,
  leaseId: id,
  runtime: runtimeRef,
  inputSequence,
  input: nativeInputPayload,
});
export type InputRequest = z.infer<typeof inputRequest>;
export const inputReply = z.strictObject({ dispatchId: id });
