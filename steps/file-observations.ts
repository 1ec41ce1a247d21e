import { configError } from "../harness/harness-error.js";
import type { Reply } from "../harness/connection/mcp-connection.js";
import { contractData } from "../harness/contract-checks/reply-checks.js";
import type { DataOf } from "../protocol/tool-contract.js";
import type { fileRead } from "../protocol/tools/files.js";
import type { editorDocuments } from "../protocol/tools/editor.js";

export type FileReadView = DataOf<typeof fileRead>;
type Document = DataOf<typeof editorDocuments>["documents"][number];

const PLACEHOLDERS: Record<string, string> = {
  disk: "diskRevision",
  directory: "directoryRevision",
  entry: "entryRevision",
  document: "documentId",
  buffer: "bufferRevision",
};

/** Placeholder arguments name project-relative paths; "." is the project root. */
const pathOf = (arg: string) => (arg === "." ? "" : arg);

/**
 * What the agent last observed of files, directories and editor documents, by project-relative path,
 * learned from every ok reply of lomi_file_read, lomi_directory_list and lomi_editor_documents.
 */
export class FileObservations {
  private readonly reads = new Map<string, FileReadView>();
  private readonly documents = new Map<string, Document>();

  /** Revisions and document IDs go to the World's compare-and-set tokens, as `field:path`. */
  constructor(private readonly tokens: Map<string, string>) {}

  observe(reply: Reply): void {
    if (reply.envelope.status !== "ok") return;
    const { tool, envelope } = reply;
    if (tool === "lomi_file_read") {
      const read = contractData(tool, envelope.data);
      this.reads.set(read.path, read);
      this.remember(read.path, { diskRevision: read.diskRevision });
    } else if (tool === "lomi_directory_list") {
      const listing = contractData(tool, envelope.data);
      this.remember(listing.path, { directoryRevision: listing.directoryRevision, entryRevision: listing.entryRevision });
      for (const e of listing.entries) this.remember(e.path, e);
    } else if (tool === "lomi_editor_documents") {
      for (const d of contractData(tool, envelope.data).documents) {
        this.documents.set(d.path, d);
        this.remember(d.path, { documentId: d.documentId, bufferRevision: d.bufferRevision });
      }
    }
  }

  private remember(path: string, fields: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(fields)) if (typeof value === "string" && name !== "path") this.tokens.set(`${name}:${path}`, value);
  }

  read(path: string): FileReadView {
    const read = this.reads.get(path);
    if (!read) throw configError(`the agent has not read the file "${path}" in this scenario`);
    return read;
  }

  document(path: string): Document {
    const doc = this.documents.get(path);
    if (!doc) throw configError(`no editor document for "${path}" in the last listing; list the editor documents first`);
    return doc;
  }

  /** {{disk:path}}, {{directory:path}}, {{entry:path}}, {{document:path}}, {{buffer:path}}: the latest value observed. */
  placeholder(name: string, arg: string): string | undefined {
    const field = PLACEHOLDERS[name];
    if (!field) return undefined;
    const value = this.tokens.get(`${field}:${pathOf(arg)}`);
    if (value === undefined) throw configError(`no ${field} observed for "${arg}"; read or list it first`);
    return value;
  }
}
