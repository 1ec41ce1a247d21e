import { isOneOf } from "./closed-lists.js";

// The one closed set of error codes every Lomi reply, native answer and harness failure uses.
// Adding a code is a protocol change: docs/spec.md lists each with its meaning.
export const ERROR_CODES = [
  "INVALID_ARGUMENT", // shape: unknown field, wrong type, missing field, not exactly one union variant
  "UNKNOWN_TOOL",
  "PAIRING_REQUIRED",
  "PAIRING_DENIED",
  "WORKSPACE_NOT_APPROVED",
  "PROJECT_REQUIRED", // key lookup/admission needs projectId when several projects are approved
  "NOT_FOUND", // also the answer for another pairing's receipt: indistinguishable by design
  "REVISION_CONFLICT", // a stale expected*Revision
  "STALE_RUNTIME", // terminalSessionId / browserGeneration / generation of a runtime that restarted
  "IDEMPOTENCY_CONFLICT",
  "RETRY_EPOCH_EXPIRED",
  "RETRY_EPOCH_INVALID", // unknown, from another broker instance or another connection
  "RESOURCE_EXHAUSTED",
  "STORE_UNAVAILABLE",
  "NATIVE_UNAVAILABLE",
  "NATIVE_FAILURE",
  "OUTSIDE_PROJECT",
  "PERMISSION_DENIED",
  "USER_DENIED",
  "LEASE_REQUIRED",
  "LEASE_EXPIRED",
  "INPUT_SEQUENCE_CONFLICT",
  "INPUT_SEQUENCE_GAP",
  "STALE_REFERENCE", // a snapshot-scoped reference (elementRef, frameId, snapshotId) from an older snapshot or navigation
  "OUT_OF_RANGE", // a native validator's narrower range (a coordinate, a size, a count)
  "ALREADY_EXISTS",
  "NOTHING_TO_COMMIT", // a Git commit with nothing staged
  "REPLAY_REFUSED", // native: a second dispatch under a permit already seen
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetails {
  field?: string;
  operationId?: string;
  [key: string]: string | number | boolean | null | undefined;
}

/** The only error type the kit throws across module boundaries: a code from the closed set. */
export class LomiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = "LomiError";
    this.code = code;
    this.details = details;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return isOneOf(ERROR_CODES, value);
}

/** What was thrown, as a message: an Error's own, anything else as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The code a Node or SQLite error carries (ENOENT, EEXIST, SQLITE_BUSY…), if it has one. */
export function systemCodeOf(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** Turns anything thrown into a LomiError, keeping typed ones as they are. */
export function asLomiError(error: unknown): LomiError {
  if (error instanceof LomiError) return error;
  return new LomiError("INTERNAL", messageOf(error));
}
