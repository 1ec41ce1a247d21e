import { z } from "zod";
import { id, relativePath } from "./fields.js";
import { directoryList } from "./tools/directories.js";
import { editorDocuments } from "./tools/editor.js";
import { fileRead } from "./tools/files.js";

// What a broker asks Lomi about files, directories and editor documents (native bridge `observe`).
// Each answer is the `data` of the matching observation tool.
const where = { workspaceId: id, projectId: id.optional() };

export const fileQueries = [
  z.strictObject({ kind: z.literal("file"), ...where, path: relativePath }),
  z.strictObject({ kind: z.literal("directory"), ...where, path: relativePath }),
  z.strictObject({ kind: z.literal("documents"), ...where }),
] as const;
export type FileQuery = z.infer<(typeof fileQueries)[number]>;

export const fileObservations = [fileRead.data, directoryList.data, editorDocuments.data] as const;

const FILE_QUERY_KINDS: ReadonlySet<string> = new Set(["file", "directory", "documents"]);
export function isFileQuery(query: { kind: string }): query is FileQuery {
  return FILE_QUERY_KINDS.has(query.kind);
}
