import { z } from "zod";
import { field, id, relativePath } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";
import { sha256Revision } from "./files.js";

// Revisions (docs/decisions.md): an entry revision hashes the entry's kind, path and state (a file's
// diskRevision, a directory's directoryRevision); a directory revision hashes its path and its entries'
// names and entry revisions, so any change below a directory moves it.

const directoryPath = (what: string) =>
  relativePath.describe(
    `${what}, relative to the project root with / separators ("" is the root), at most 1024 characters; a path that leaves the project is refused with OUTSIDE_PROJECT.`,
  );
const freshRevision = (what: string, conflict: string) =>
  sha256Revision.describe(
    `${what} from a fresh lomi_directory_list: 64 lowercase hex digits (not the layout domainRevision). A stale one is refused with REVISION_CONFLICT and nothing ${conflict}.`,
  );

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
    'Lists a project directory ("" is the project root) with its directoryRevision and entryRevision and, for each entry, its entryRevision and its diskRevision or directoryRevision: the revisions lomi_directory_create, _rename and _delete expect.',
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId, projectId: field.anchorProjectId, path: directoryPath("The directory to list") }),
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
  hints: changes({ destructive: false }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    path: directoryPath("The directory to create (its parent must exist, the path must be free)"),
    expectedParentRevision: freshRevision("The parent directory's directoryRevision", "created"),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
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
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    path: directoryPath("The directory to move"),
    newPath: directoryPath("Where it goes (its parent must exist, the path must be free)"),
    expectedEntryRevision: freshRevision("The moved directory's own entryRevision, as its parent's listing shows it,", "moved"),
    expectedParentRevision: freshRevision("The directoryRevision of newPath's parent", "moved"),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: directoryRenameResult,
  data: admissionData("lomi_directory_rename", directoryRenameResult),
  revisionField: "expectedEntryRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;

const directoryDeleteResult = z.strictObject({
  projectId: id,
  path: z.string(),
  deletedEntries: z.number().int().nonnegative(),
  parentRevision: sha256Revision,
});

export const directoryDelete = {
  name: "lomi_directory_delete",
  kind: "operation",
  title: "Delete a directory",
  description:
    "Deletes a directory and everything in it. expectedDirectoryRevision is its directoryRevision from a fresh listing; since that revision covers everything below it, a directory that changed anywhere inside is refused with REVISION_CONFLICT and nothing deleted.",
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    path: directoryPath("The directory to delete, with everything in it"),
    expectedDirectoryRevision: freshRevision("The directory's own directoryRevision (it covers everything below it)", "deleted"),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: directoryDeleteResult,
  data: admissionData("lomi_directory_delete", directoryDeleteResult),
  revisionField: "expectedDirectoryRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;
