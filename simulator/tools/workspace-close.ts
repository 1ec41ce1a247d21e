import { asLomiError } from "../../protocol/errors.js";
import { workspaceClose } from "../../protocol/tools/workspace-close.js";
import type { EditorDocument } from "../files/editor-document.js";
import { recordEffect, type NativeContext, type NativeOperation, type NativeTool, type Settle } from "../native-tool.js";

type CloseOp = NativeOperation<{ workspaceId: string }>;
type Saved = { projectId: string; path: string; diskRevision: string };

const projectIdsOf = (op: CloseOp) => op.ws.projects.map((p) => p.projectId);
const fileOf = (d: EditorDocument) => ({ projectId: d.projectId, path: d.path });

function dirtyDocuments(ctx: NativeContext, op: CloseOp): EditorDocument[] {
  return ctx.files.documentsIn(projectIdsOf(op)).filter((d) => ctx.files.isDirty(d));
}

function outcome(op: CloseOp, closed: boolean, savedFiles: Saved[], unsaved: EditorDocument[]) {
  return { workspaceId: op.ws.workspaceId, closed, savedFiles, unsavedFiles: unsaved.map(fileOf) };
}

function close(ctx: NativeContext, op: CloseOp, settle: Settle, savedFiles: Saved[]): void {
  op.ws.closed = true;
  ctx.files.closeDocuments(projectIdsOf(op));
  recordEffect(ctx, op, { what: "workspace.closed", workspaceId: op.ws.workspaceId });
  settle(op, { state: "succeeded", effectState: "complete", result: outcome(op, true, savedFiles, []), error: null });
}

/** The close guard's "save": each dirty file in the order it was opened, stopping at the first that fails. */
function saveAndClose(ctx: NativeContext, op: CloseOp, settle: Settle): void {
  const dirty = dirtyDocuments(ctx, op);
  const saved: Saved[] = [];
  for (const [i, doc] of dirty.entries()) {
    let file: Saved;
    try {
      file = { ...fileOf(doc), diskRevision: ctx.files.save(doc) };
    } catch (error) {
      const e = asLomiError(error);
      settle(op, {
        state: "failed",
        effectState: saved.length > 0 ? "partial" : "none",
        result: outcome(op, false, saved, dirty.slice(i)),
        error: { code: e.code, message: `Saving ${doc.path} failed, so the workspace stays open: ${e.message}` },
      });
      return;
    }
    saved.push(file);
    recordEffect(ctx, op, { what: "file.saved", ...file });
    op.progress = { phase: "running", effectState: "partial" };
  }
  close(ctx, op, settle, saved);
}

export const nativeWorkspaceClose: NativeTool<typeof workspaceClose.input> = {
  name: workspaceClose.name,
  args: workspaceClose.input,
  check() {
    // The dispatcher already refuses a workspace that is closed or not approved; the guard decides the rest.
  },
  start(ctx, op, settle) {
    const dirty = dirtyDocuments(ctx, op);
    if (dirty.length === 0) return close(ctx, op, settle, []);
    // The close guard: Lomi asks the user; a denial or a cancel leaves everything as it is (simulator/decisions.ts).
    const files = dirty.map((d) => `${d.projectId}/${d.path}`).join(", ");
    ctx.decisions.ask(op, `Save ${files} before closing ${op.ws.name}?`, () => saveAndClose(ctx, op, settle));
  },
};
