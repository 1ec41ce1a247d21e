import { editorApply } from "../../protocol/tools/editor.js";
import { requireSameRevision } from "../files/file-tree.js";
import { applyEdits } from "../files/text-edits.js";
import { recordEffect, type NativeContext, type NativeTool, type Target } from "../native-tool.js";

type Args = Target<{ documentId: string; expectedBufferRevision: string }>;

/** The exact document, at the buffer revision the edit was decided on. */
function currentDocument(ctx: NativeContext, { projectId, args }: Args) {
  const doc = ctx.files.document(projectId, args.documentId);
  requireSameRevision(args.expectedBufferRevision, doc.bufferRevision.toString(), "expectedBufferRevision", `the buffer of ${args.documentId}`);
  return doc;
}

export const nativeEditorApply: NativeTool<typeof editorApply.input> = {
  name: editorApply.name,
  args: editorApply.input,
  check(ctx, target) {
    applyEdits(currentDocument(ctx, target), target.args.edits);
  },
  start(ctx, op, settle) {
    const doc = currentDocument(ctx, op);
    ctx.files.edit(doc, applyEdits(doc, op.args.edits));
    const result = { documentId: doc.documentId, bufferRevision: doc.bufferRevision.toString(), dirty: ctx.files.isDirty(doc), length: doc.text.length };
    recordEffect(ctx, op, { what: "editor.edited", projectId: doc.projectId, path: doc.path, ...result });
    settle(op, { state: "succeeded", effectState: "complete", result, error: null });
  },
};
