import { LomiError } from "../../protocol/errors.js";
import { fileWrite, MAX_FILE_BYTES } from "../../protocol/tools/files.js";
import { contentBytes } from "../files/bytes.js";
import { parentOf, requireSameRevision, sha256Hex, type FileTree } from "../files/file-tree.js";
import { recordEffect, type NativeTool } from "../native-tool.js";

/** The disk revision the write was decided on is the current one (null: no file there yet). */
function checkWrite(tree: FileTree, p: string, expected: string | null): void {
  const node = tree.node(p);
  if (node?.kind === "directory") tree.file(p, "path");
  if (expected === null) {
    if (node)
      throw new LomiError("ALREADY_EXISTS", `${JSON.stringify(p)} already exists; pass its diskRevision from lomi_file_read to overwrite it.`, {
        field: "expectedDiskRevision",
      });
    tree.directory(parentOf(p), "path");
    return;
  }
  const file = tree.file(p, "path");
  requireSameRevision(expected, sha256Hex(file.bytes), "expectedDiskRevision", `the file ${JSON.stringify(p)}`);
  if (!file.writable) throw new LomiError("PERMISSION_DENIED", `${JSON.stringify(p)} cannot be written (read-only on disk).`, { field: "path" });
}

export const nativeFileWrite: NativeTool<typeof fileWrite.input> = {
  name: fileWrite.name,
  args: fileWrite.input,
  check(ctx, { projectId, args }) {
    const { tree, p } = ctx.files.locate(projectId, args.path);
    checkWrite(tree, p, args.expectedDiskRevision);
    if (contentBytes(args.content).length > MAX_FILE_BYTES)
      throw new LomiError("OUT_OF_RANGE", `A file holds at most ${MAX_FILE_BYTES} bytes.`, { field: "content" });
  },
  start(ctx, op, settle) {
    const { p } = ctx.files.locate(op.projectId, op.args.path);
    const bytes = contentBytes(op.args.content);
    const { created, diskRevision } = ctx.files.writeFile(op.projectId, p, bytes, "path");
    const written = { projectId: op.projectId, path: p, diskRevision, size: bytes.length, created };
    recordEffect(ctx, op, { what: "file.written", ...written });
    settle(op, { state: "succeeded", effectState: "complete", result: written, error: null });
  },
};
