import { z } from "zod";
import { id, relativePath, requestKey, retryEpoch } from "../fields.js";
import type { ObservationContract, OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";
import { sha256Revision } from "./files.js";

// Revisions (docs/decisions.md): an entry revision hashes the entry's kind, path and state (a file's
// diskRevision, a directory's directoryRevision); a directory revision hashes its path and its entries'
// names and entry revisions, so any change below a directory moves it.

const fileEntry = z.strictObject({
  kind: z.literal("file"),
  name: z.string(),
  path: z.string(),
  entryRevision: sha256Revision,
  diskRevision: sha256Revision,
  size: z.number().int().nonnegative(),
});
const directoryEntry = z.strictObject({
  kind: z.literal("directory"),
  name: z.string(),
  path: z.string(),
  entryRevision: sha256Revision,
  directoryRevision: sha256Revision,
});

export const directoryList = {
  name: "lomi_directory_list",
  kind: "observation",
  title: "List a directory",
  description:
    "Lists a project directory (\"\" is the project root) with its directoryRevision and entryRevision and, for each entry, its entryRevision and its diskRevision or directoryRevision: the revisions lomi_directory_create, _rename and _delete expect.",
  input: z.strictObject({ workspaceId: id, projectId: id.optional(), path: relativePath }),
  data: z.strictObject({
    workspaceId: id,
    projectId: id,
    path: z.string(),
    directoryRevision: sha256Revision,
    entryRevision: sha256Revision,
    entries: z.array(z.discriminatedUnion("kind", [fileEntry, directoryEntry])),
  }),
} satisfies ObservationContract;

const directoryCreateResult = z.strictObject({ projectId: id, path: z.string(), directoryRevision: sha256Revision, parentRevision: sha256Revision });

export const directoryCreate = {
  name: "lomi_directory_create",
  kind: "operation",
  title: "Create a directory",
  description:
    "Creates an empty directory whose parent exists. expectedParentRevision is the parent's directoryRevision from a fresh lomi_directory_list (not the layout domainRevision); a stale one is refused with REVISION_CONFLICT and nothing created.",
  input: z.strictObject({
    workspaceId: id,
    projectId: id.optional(),
    path: relativePath,
    expectedParentRevision: sha256Revision,
    retryEpoch,
    requestKey,
  }),
  result: directoryCreateResult,
  data: admissionData("lomi_directory_create", directoryCreateResult),
  revisionField: "expectedParentRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;

const directoryRenameResult = z.strictObject({
  projectId: id,
  previousPath: z.string(),
  path: z.string(),
  entryRevision: sha256Revision,
  parentRevision: sha256Revision,
});

export const directoryRename = {
  name: "lomi_directory_rename",
  kind: "operation",
  title: "Rename or move a directory",
  description:
    "Moves a directory to newPath with everything in it. expectedEntryRevision is the directory's own entryRevision and expectedParentRevision the directoryRevision of newPath's parent, both from fresh listings; a stale one is refused with REVISION_CONFLICT and nothing moved.",
  input: z.strictObject({
    workspaceId: id,
    projectId: id.optional(),
    path: relativePath,
    newPath: relativePath,
    expectedEntryRevision: sha256Revision,
    expectedParentRevision: sha256Revision,
    retryEpoch,
    requestKey,
  }),
  result: directoryRenameResult,
  data: admissionData("lomi_directory_rename", directoryRenameResult),
  revisionField: "expectedEntryRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;

const directoryDeleteResult = z.strictObject({ projectId: id, path: z.string(), deletedEntries: z.number().int().nonnegative(), parentRevision: sha256Revision });

export const directoryDelete = {
  name: "lomi_directory_delete",
  kind: "operation",
  title: "Delete a directory",
  description:
    "Deletes a directory and everything in it. expectedDirectoryRevision is its directoryRevision from a fresh listing; since that revision covers everything below it, a directory that changed anywhere inside is refused with REVISION_CONFLICT and nothing deleted.",
  input: z.strictObject({
    workspaceId: id,
    projectId: id.optional(),
    path: relativePath,
    expectedDirectoryRevision: sha256Revision,
    retryEpoch,
    requestKey,
  }),
  result: directoryDeleteResult,
  data: admissionData("lomi_directory_delete", directoryDeleteResult),
  revisionField: "expectedDirectoryRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;
