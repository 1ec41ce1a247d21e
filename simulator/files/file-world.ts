import type { World } from "../../protocol/control-api.js";
import { LomiError } from "../../protocol/errors.js";
import type { FilesSnapshot } from "../../protocol/files-control.js";
import type { Random } from "../../protocol/ports.js";
import { contentBytes } from "./bytes.js";
import { decodeForEditor, encodeBuffer, type EditorDocument } from "./editor-document.js";
import { FileTree, isBelow, parentOf, projectPath, sha256Hex } from "./file-tree.js";

/** Every project's files on disk and the documents open in the shared editor, kept consistent with each other. */
export class FileWorld {
  private readonly trees = new Map<string, FileTree>();
  /** In the order the user opened them. */
  private documents: EditorDocument[] = [];

  constructor(
    seed: World["projectFiles"],
    private readonly random: Random,
  ) {
    for (const [projectId, project] of Object.entries(seed)) {
      const tree = this.tree(projectId);
      for (const dir of project.directories) tree.makeDirectory(projectPath(dir, "directories"), true);
      for (const file of project.files) {
        const p = projectPath(file.path, "files");
        tree.makeDirectory(parentOf(p), true);
        tree.writeFile(p, contentBytes(file.content), "files");
      }
      for (const p of project.openInEditor) this.open(projectId, projectPath(p, "openInEditor"));
    }
  }

  /** A project's tree; a project the world file gave no files has an empty root. */
  tree(projectId: string): FileTree {
    let tree = this.trees.get(projectId);
    if (!tree) {
      tree = new FileTree();
      this.trees.set(projectId, tree);
    }
    return tree;
  }

  /** The project's tree and the normalized project-relative path an operation names. */
  locate(projectId: string, raw: string, field = "path"): { tree: FileTree; p: string } {
    return { tree: this.tree(projectId), p: projectPath(raw, field) };
  }

  /** Writes bytes on disk. A clean document of that file follows the disk; a dirty one keeps its buffer. */
  writeFile(projectId: string, p: string, bytes: Buffer, field: string): { created: boolean; diskRevision: string } {
    const clean = this.documents.filter((d) => d.projectId === projectId && d.path === p && !this.isDirty(d));
    const { created } = this.tree(projectId).writeFile(p, bytes, field);
    for (const doc of clean) this.edit(doc, decodeForEditor(bytes).text);
    return { created, diskRevision: sha256Hex(bytes) };
  }

  // Editor documents ------------------------------------------------------------------------------

  /** Opens a file in the editor, or answers the document already open for it. */
  open(projectId: string, p: string): EditorDocument {
    const open = this.documents.find((d) => d.projectId === projectId && d.path === p);
    if (open) return open;
    const doc: EditorDocument = {
      documentId: this.random.id("doc-"),
      projectId,
      path: p,
      ...decodeForEditor(this.tree(projectId).file(p, "path").bytes),
      bufferRevision: 1n,
    };
    this.documents.push(doc);
    return doc;
  }

  /** The user types at the end of a document in the editor, opening the file first if needed. */
  userTypes(projectId: string, p: string, text: string): EditorDocument {
    const doc = this.open(projectId, p);
    this.edit(doc, doc.text + text);
    return doc;
  }

  /** The document of a project by its ID; a document of another project is not found in this one. */
  document(projectId: string, documentId: string): EditorDocument {
    const doc = this.documents.find((d) => d.documentId === documentId && d.projectId === projectId);
    if (!doc)
      throw new LomiError("NOT_FOUND", `No open editor document ${documentId} in project ${projectId}; lomi_editor_documents lists them.`, {
        field: "documentId",
      });
    return doc;
  }

  documentsIn(projectIds: readonly string[]): EditorDocument[] {
    return this.documents.filter((d) => projectIds.includes(d.projectId));
  }

  /** The buffer, in its encoding, differs from the bytes on disk (or the file is gone). */
  isDirty(doc: EditorDocument): boolean {
    const node = this.tree(doc.projectId).node(doc.path);
    return node?.kind !== "file" || !node.bytes.equals(encodeBuffer(doc));
  }

  edit(doc: EditorDocument, text: string): void {
    doc.text = text;
    doc.bufferRevision += 1n;
  }

  /** Saves a document's buffer to its file: PERMISSION_DENIED or NOT_FOUND when the file cannot be written. */
  save(doc: EditorDocument): string {
    return this.writeFile(doc.projectId, doc.path, encodeBuffer(doc), "path").diskRevision;
  }

  /** Documents below a moved directory follow it. */
  moveDocuments(projectId: string, from: string, to: string): void {
    for (const doc of this.documents) {
      if (doc.projectId === projectId && (doc.path === from || isBelow(doc.path, from))) doc.path = to + doc.path.slice(from.length);
    }
  }

  closeDocuments(projectIds: readonly string[]): void {
    this.documents = this.documents.filter((d) => !projectIds.includes(d.projectId));
  }

  view(doc: EditorDocument) {
    return {
      documentId: doc.documentId,
      projectId: doc.projectId,
      path: doc.path,
      bufferRevision: doc.bufferRevision.toString(),
      dirty: this.isDirty(doc),
      encoding: doc.encoding,
      text: doc.text,
    };
  }

  /** The ground truth a harness compares the broker's claims with. */
  snapshot(): FilesSnapshot {
    return {
      projects: [...this.trees.entries()].map(([projectId, tree]) => ({
        projectId,
        entries: tree.entries().map(([p, node]) => ({
          path: p,
          kind: node.kind,
          base64: node.kind === "file" ? node.bytes.toString("base64") : null,
          writable: node.kind === "file" ? node.writable : true,
        })),
      })),
      documents: this.documents.map((d) => this.view(d)),
    };
  }
}
