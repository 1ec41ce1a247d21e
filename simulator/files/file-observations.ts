import { LomiError } from "../../protocol/errors.js";
import type { FileQuery } from "../../protocol/files-bridge.js";
import type { Simulator } from "../simulator.js";
import type { WorldState, WorkspaceState } from "../world-state.js";
import { lineEndingsOf, utf8View } from "./bytes.js";
import { nameOf, projectPath } from "./file-tree.js";

/** The project a file query is about: named, or the workspace's only project. */
function projectOf(world: WorldState, ws: WorkspaceState, projectId: string | undefined): string {
  if (projectId !== undefined) {
    world.project(ws, projectId);
    return projectId;
  }
  if (ws.projects.length === 1) return ws.projects[0]!.projectId;
  throw new LomiError("PROJECT_REQUIRED", `Workspace ${ws.workspaceId} has ${ws.projects.length} projects; name the projectId the path is relative to.`, {
    field: "projectId",
  });
}

/** Answers the native bridge's file, directory and editor-document queries: what Lomi sees now. */
export function observeFiles(sim: Simulator, pairingId: string, query: FileQuery) {
  const { world, files } = sim;
  return sim.observeIn(pairingId, query.workspaceId, (ws) => {
    if (query.kind === "documents") {
      const projectIds = query.projectId === undefined ? ws.projects.map((p) => p.projectId) : [projectOf(world, ws, query.projectId)];
      return { workspaceId: ws.workspaceId, documents: files.documentsIn(projectIds).map((d) => files.view(d)) };
    }
    const projectId = projectOf(world, ws, query.projectId);
    const tree = files.tree(projectId);
    const p = projectPath(query.path, "path");
    const where = { workspaceId: ws.workspaceId, projectId, path: p };
    if (query.kind === "file") {
      const { bytes } = tree.file(p, "path");
      return {
        ...where,
        size: bytes.length,
        diskRevision: tree.diskRevision(p),
        base64: bytes.toString("base64"),
        text: utf8View(bytes),
        lineEndings: lineEndingsOf(bytes),
      };
    }
    tree.directory(p, "path");
    return {
      ...where,
      directoryRevision: tree.directoryRevision(p),
      entryRevision: tree.entryRevision(p),
      entries: tree.children(p).map((c) => {
        const node = tree.node(c)!;
        const entry = { name: nameOf(c), path: c, entryRevision: tree.entryRevision(c) };
        return node.kind === "file"
          ? { kind: "file" as const, ...entry, diskRevision: tree.diskRevision(c), size: node.bytes.length }
          : { kind: "directory" as const, ...entry, directoryRevision: tree.directoryRevision(c) };
      }),
    };
  });
}
