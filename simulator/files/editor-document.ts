import { utf8View } from "./bytes.js";

/** A document open in Lomi's shared editor: a buffer that can differ from the disk. */
export interface EditorDocument {
  documentId: string;
  projectId: string;
  path: string;
  /** UTF-8 when the bytes decode as UTF-8, Latin-1 otherwise: every byte then maps to one character and back. */
  encoding: "utf-8" | "latin1";
  text: string;
  /** Moves on every change of the buffer, by the agent or by the user. */
  bufferRevision: bigint;
}

export function decodeForEditor(bytes: Buffer): Pick<EditorDocument, "encoding" | "text"> {
  const text = utf8View(bytes);
  return text === null ? { encoding: "latin1", text: bytes.toString("latin1") } : { encoding: "utf-8", text };
}

/** The bytes a save writes: the buffer in the document's own encoding, line endings as they stand in it. */
export function encodeBuffer(doc: Pick<EditorDocument, "encoding" | "text">): Buffer {
  return Buffer.from(doc.text, doc.encoding === "utf-8" ? "utf8" : "latin1");
}

/** Latin-1 holds U+0000..U+00FF only; UTF-8 holds everything. */
export function representable(encoding: EditorDocument["encoding"], text: string): boolean {
  return encoding === "utf-8" || [...text].every((c) => c.charCodeAt(0) <= 0xff);
}
