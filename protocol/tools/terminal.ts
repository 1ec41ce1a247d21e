import { z } from "zod";
import { decimalRevision, id, relativePath, requestKey, retryEpoch } from "../fields.js";
import type { OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

const terminalCreateResult = z.strictObject({
  panelId: id,
  terminalSessionId: id,
  leaseId: id,
  domainRevision: decimalRevision,
});

export const terminalCreate = {
  name: "lomi_terminal_create",
  kind: "operation",
  title: "Create a terminal",
  description:
    "Creates a terminal panel in a workspace (a layout mutation: expectedRevision must be the current domainRevision). Returns an operationId: admission, not completion. Poll lomi_operation_get until it settles; the confirmed result carries the terminal session and its lease.",
  input: z.strictObject({
    workspaceId: id,
    projectId: id.optional(),
    cwdRelative: relativePath,
    title: z.string().min(1).max(200),
    expectedRevision: decimalRevision,
    retryEpoch,
    requestKey,
  }),
  result: terminalCreateResult,
  data: admissionData("lomi_terminal_create", terminalCreateResult),
  revisionField: "expectedRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;

const terminalRunResult = z.strictObject({
  terminalSessionId: id,
  processStarted: z.boolean(),
  exitCode: z.number().int().nullable(),
});

export const terminalRun = {
  name: "lomi_terminal_run",
  kind: "operation",
  title: "Run a command in a terminal",
  description:
    "Starts a command in the exact terminal session named by terminalSessionId (a process start: cancelling cannot undo it). The operation settles when the command exits; its result has the exit code.",
  input: z.strictObject({
    workspaceId: id,
    projectId: id.optional(),
    terminalSessionId: id,
    command: z.string().min(1).max(4096),
    retryEpoch,
    requestKey,
  }),
  result: terminalRunResult,
  data: admissionData("lomi_terminal_run", terminalRunResult),
  generationField: "terminalSessionId",
  serializeOn: "terminalSessionId",
} satisfies OperationContract;
