import { z } from "zod";
import { decimalRevision, field, id, relativePath } from "../fields.js";
import { changes, type OperationContract } from "../tool-contract.js";
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
  hints: changes({ destructive: false }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    cwdRelative: relativePath.describe(
      'The terminal\'s working directory, relative to the project root ("" or "." is the root), with / separators; at most 1024 characters. A path that escapes the project (.. or absolute) is refused with OUTSIDE_PROJECT.',
    ),
    title: z.string().min(1).max(200).describe("The panel's title as Lomi shows it: 1-200 characters. A label only; later tools name the panel by panelId."),
    expectedRevision: field.expectedRevision,
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
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
  hints: changes({ destructive: true, openWorld: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    terminalSessionId: field.terminalSessionId,
    command: z
      .string()
      .min(1)
      .max(4096)
      .describe("The command line to start in the terminal, as typed at its shell: 1-4096 characters. Its output is read with lomi_terminal_read."),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: terminalRunResult,
  data: admissionData("lomi_terminal_run", terminalRunResult),
  generationField: "terminalSessionId",
  serializeOn: "terminalSessionId",
} satisfies OperationContract;
