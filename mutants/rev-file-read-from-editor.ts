import { createHash } from "node:crypto";
import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

type Document = { projectId: string; path: string; dirty: boolean; encoding: "utf-8" | "latin1"; text: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });
const textOf = (bytes: Buffer) => {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
};
function lineEndingsOf(text: string): "lf" | "crlf" | "mixed" | "none" {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  return crlf === 0 && lf === 0 ? "none" : crlf === 0 ? "lf" : lf === 0 ? "crlf" : "mixed";
}

/**
 * A broker seen in editor integrations reads a file through the editor when it is open there (what
 * the user sees), so a document with unsaved changes reads as its buffer, not as the disk.
 */
export const revFileReadFromEditor: Mutant = {
  name: "rev-file-read-from-editor",
  family: "REV",
  breaks: ["REV-34"],
  defect: "lomi_file_read answers a file open in the editor with its buffer: a dirty document reads as its unsaved text, with a diskRevision of those bytes",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_file_read" && okDataOf(reply) !== undefined,
      async (reply, _name, args, { call }) => {
        const read = okDataOf(reply)!;
        const documents = okDataOf(await call("lomi_editor_documents", { workspaceId: args.workspaceId, projectId: read.projectId }))?.documents as
          Document[] | undefined;
        const doc = documents?.find((d) => d.dirty && d.projectId === read.projectId && d.path === read.path);
        if (!doc) return reply;
        const bytes = Buffer.from(doc.text, doc.encoding === "utf-8" ? "utf8" : "latin1");
        const diskRevision = createHash("sha256").update(bytes).digest("hex");
        return okReply({
          ...read,
          size: bytes.length,
          diskRevision,
          base64: bytes.toString("base64"),
          text: textOf(bytes),
          lineEndings: lineEndingsOf(doc.text),
        });
      },
    ),
  },
};
