import { z } from "zod";
import { field, id } from "../fields.js";
import { changes, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";
import { sha256Revision } from "./files.js";

const projectFile = { projectId: id, path: z.string() };

const workspaceCloseResult = z.strictObject({
  workspaceId: id,
  closed: z.boolean(),
  /** Saved one by one, in this order, before the close or the failure. */
  savedFiles: z.array(z.strictObject({ ...projectFile, diskRevision: sha256Revision })),
  /** Dirty documents left unsaved: the one whose save failed first. */
  unsavedFiles: z.array(z.strictObject(projectFile)),
});

export const workspaceClose = {
  name: "lomi_workspace_close",
  kind: "operation",
  title: "Close a workspace",
  description:
    "Closes a workspace. With dirty editor documents, Lomi's close guard asks the user first (state awaiting_user): on approval the dirty files are saved one by one and the workspace closes; a denial settles failed with USER_DENIED; a save that fails midway leaves the workspace open and the operation failed with effectState partial. Cancelling cannot undo a completed save.",
  hints: changes({ destructive: true }),
  input: z.strictObject({ workspaceId: field.workspaceId, projectId: field.anchorProjectId, retryEpoch: field.retryEpoch, requestKey: field.requestKey }),
  result: workspaceCloseResult,
  data: admissionData("lomi_workspace_close", workspaceCloseResult),
  serializeOn: "workspaceId",
} satisfies OperationContract;
