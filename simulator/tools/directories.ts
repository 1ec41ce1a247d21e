import { LomiError } from "../../protocol/errors.js";
import { directoryCreate, directoryDelete, directoryRename } from "../../protocol/tools/directories.js";
import { isBelow, parentOf, projectPath, requireSameRevision, ROOT, type FileTree } from "../files/file-tree.js";
import { recordEffect, type NativeTool } from "../native-tool.js";

function notTheRoot(p: string, what: string): void {
  if (p === ROOT) throw new LomiError("PERMISSION_DENIED", `The project root cannot be ${what}.`, { field: "path" });
}

function requireAbsent(tree: FileTree, p: string, field: string): void {
  if (tree.node(p)) throw new LomiError("ALREADY_EXISTS", `${JSON.stringify(p)} already exists.`, { field });
}

/** The parent directory exists and is as the caller observed it. */
function requireParent(tree: FileTree, p: string, expected: string, pathField: string): void {
  const parent = parentOf(p);
  tree.directory(parent, pathField);
  requireSameRevision(expected, tree.directoryRevision(parent), "expectedParentRevision", `the directory ${JSON.stringify(parent)}`);
}

export const nativeDirectoryCreate: NativeTool<typeof directoryCreate.input> = {
  name: directoryCreate.name,
  args: directoryCreate.input,
  check(ctx, { projectId, args }) {
    const { tree, p } = ctx.files.locate(projectId, args.path);
    requireParent(tree, p, args.expectedParentRevision, "path");
    requireAbsent(tree, p, "path");
  },
  start(ctx, op, settle) {
    const { tree, p } = ctx.files.locate(op.projectId, op.args.path);
    tree.makeDirectory(p, false);
    recordEffect(ctx, op, { what: "directory.created", projectId: op.projectId, path: p });
    const result = { projectId: op.projectId, path: p, directoryRevision: tree.directoryRevision(p), parentRevision: tree.directoryRevision(parentOf(p)) };
    settle(op, { state: "succeeded", effectState: "complete", result, error: null });
  },
};

export const nativeDirectoryRename: NativeTool<typeof directoryRename.input> = {
  name: directoryRename.name,
  args: directoryRename.input,
  check(ctx, { projectId, args }) {
    const { tree, p: from } = ctx.files.locate(projectId, args.path);
    const to = projectPath(args.newPath, "newPath");
    notTheRoot(from, "renamed");
    tree.directory(from, "path");
    requireSameRevision(args.expectedEntryRevision, tree.entryRevision(from), "expectedEntryRevision", `the directory ${JSON.stringify(from)}`);
    if (to === from || isBelow(to, from))
      throw new LomiError("INVALID_ARGUMENT", `A directory cannot move onto or into itself: ${JSON.stringify(to)}.`, { field: "newPath" });
    requireParent(tree, to, args.expectedParentRevision, "newPath");
    requireAbsent(tree, to, "newPath");
  },
  start(ctx, op, settle) {
    const { tree, p: from } = ctx.files.locate(op.projectId, op.args.path);
    const to = projectPath(op.args.newPath, "newPath");
    tree.move(from, to);
    ctx.files.moveDocuments(op.projectId, from, to);
    recordEffect(ctx, op, { what: "directory.renamed", projectId: op.projectId, previousPath: from, path: to });
    const result = {
      projectId: op.projectId,
      previousPath: from,
      path: to,
      entryRevision: tree.entryRevision(to),
      parentRevision: tree.directoryRevision(parentOf(to)),
    };
    settle(op, { state: "succeeded", effectState: "complete", result, error: null });
  },
};

export const nativeDirectoryDelete: NativeTool<typeof directoryDelete.input> = {
  name: directoryDelete.name,
  args: directoryDelete.input,
  check(ctx, { projectId, args }) {
    const { tree, p } = ctx.files.locate(projectId, args.path);
    notTheRoot(p, "deleted");
    tree.directory(p, "path");
    requireSameRevision(args.expectedDirectoryRevision, tree.directoryRevision(p), "expectedDirectoryRevision", `the directory ${JSON.stringify(p)}`);
    const locked = tree.below(p).find((q) => tree.node(q)?.kind === "file" && !tree.file(q, "path").writable);
    if (locked)
      throw new LomiError("PERMISSION_DENIED", `${JSON.stringify(locked)} inside ${JSON.stringify(p)} cannot be deleted (read-only on disk).`, {
        field: "path",
      });
  },
  start(ctx, op, settle) {
    const { tree, p } = ctx.files.locate(op.projectId, op.args.path);
    const deletedEntries = tree.remove(p);
    recordEffect(ctx, op, { what: "directory.deleted", projectId: op.projectId, path: p, deletedEntries });
    const result = { projectId: op.projectId, path: p, deletedEntries, parentRevision: tree.directoryRevision(parentOf(p)) };
    settle(op, { state: "succeeded", effectState: "complete", result, error: null });
  },
};
