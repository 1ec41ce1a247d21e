import { z } from "zod";
import { id, relativePath } from "./fields.js";
import { editorDocumentSchema } from "./tools/editor.js";
import { fileContent } from "./tools/files.js";

// The simulated Lomi's files, as a world file seeds them and as the control API shows and changes them.

/** One project's tree: files (parents are implied), empty directories, and documents open in the editor. */
export const projectFilesSeed = z.strictObject({
  files: z.array(z.strictObject({ path: relativePath, content: fileContent })).default([]),
  directories: z.array(relativePath).default([]),
  /** Opened by the user, in this order: the order a workspace-close guard saves them in. */
  openInEditor: z.array(relativePath).default([]),
});

/** Another program writes a file on disk (not through the broker): observed disk revisions go stale. */
export const otherProgramWriteRequest = z.strictObject({ projectId: id, path: relativePath, content: fileContent });
/** The file can no longer be written (read-only on disk): a fault for writes and close-guard saves. */
export const protectFileRequest = z.strictObject({ projectId: id, path: relativePath });
/** The user types at the end of a document in the shared editor (opening it if needed). */
export const editorTypeRequest = z.strictObject({ projectId: id, path: relativePath, text: z.string() });

export const filesSnapshotReply = z.strictObject({
  projects: z.array(
    z.strictObject({
      projectId: id,
      entries: z.array(z.strictObject({ path: z.string(), kind: z.enum(["file", "directory"]), base64: z.string().nullable(), writable: z.boolean() })),
    }),
  ),
  documents: z.array(editorDocumentSchema),
});
export type FilesSnapshot = z.infer<typeof filesSnapshotReply>;
