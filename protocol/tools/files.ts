import { z } from "zod";
import { field, id, relativePath } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

/** Disk, entry and directory revisions: a SHA-256, 64 lowercase hex digits (never the decimal layout counter). */
export const sha256Revision = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 revision: 64 lowercase hex digits");

/** The largest file the simulated Lomi reads or writes whole. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Exactly one of: text (written as UTF-8, line endings as given) or base64 (the exact bytes, any encoding). */
export const fileContent = z.union(
  [
    z.strictObject({ text: z.string().max(MAX_FILE_BYTES).describe("The file's text, written as UTF-8 with line endings exactly as given: at most 1 MiB.") }),
    z.strictObject({
      base64: z
        .base64()
        .max(Math.ceil(MAX_FILE_BYTES / 3) * 4)
        .describe("The file's exact bytes in standard base64 (at most 1 MiB decoded): any encoding and line endings survive unchanged."),
    }),
  ],
  { error: "exactly one of { text } or { base64 }" },
);
const filePath = relativePath.describe(
  "The file's path relative to the project root with / separators, such as src/app.ts (at most 1024 characters); a path that leaves the project is refused with OUTSIDE_PROJECT.",
);
export type FileContent = z.infer<typeof fileContent>;

export const LINE_ENDINGS = ["lf", "crlf", "mixed", "none"] as const;

export const fileRead = {
  name: "lomi_file_read",
  kind: "observation",
  title: "Read a file",
  description:
    "Reads a project file's exact bytes (base64), a UTF-8 text view when the bytes decode as UTF-8 (null otherwise), and its diskRevision: the SHA-256 of those exact bytes, original encoding and line endings included. Paths are relative to the project; projectId is needed when the workspace has several projects.",
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId, projectId: field.anchorProjectId, path: filePath }),
  data: z.strictObject({
    workspaceId: id,
    projectId: id,
    path: z.string(),
    size: z.number().int().nonnegative(),
    diskRevision: sha256Revision,
    base64: z.string(),
    text: z.string().nullable(),
    lineEndings: z.enum(LINE_ENDINGS),
  }),
} satisfies ObservationContract;

const fileWriteResult = z.strictObject({
  projectId: id,
  path: z.string(),
  diskRevision: sha256Revision,
  size: z.number().int().nonnegative(),
  created: z.boolean(),
});

export const fileWrite = {
  name: "lomi_file_write",
  kind: "operation",
  title: "Write a file",
  description:
    "Writes a project file's bytes on disk (not the editor buffer). expectedDiskRevision is the diskRevision from a fresh lomi_file_read, or null to create a file that does not exist yet; a stale one is refused with REVISION_CONFLICT and nothing written. content is exactly one of { text } (UTF-8) or { base64 } (exact bytes: CRLF and non-UTF-8 encodings survive unchanged).",
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    path: filePath,
    expectedDiskRevision: sha256Revision
      .nullable()
      .describe(
        "The file's diskRevision (64 lowercase hex digits, the SHA-256 of its bytes) from a fresh lomi_file_read, or null to create a file that does not exist yet. A stale one is refused with REVISION_CONFLICT and nothing written.",
      ),
    content: fileContent.describe('Exactly one of { "text": "..." } (written as UTF-8) or { "base64": "..." } (the exact bytes).'),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: fileWriteResult,
  data: admissionData("lomi_file_write", fileWriteResult),
  revisionField: "expectedDiskRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;
