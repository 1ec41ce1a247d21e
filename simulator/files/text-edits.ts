import { LomiError } from "../../protocol/errors.js";
import { representable, type EditorDocument } from "./editor-document.js";

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The buffer after replacing each [start, end) (UTF-16 code units of the current buffer) with its text.
 * Edits must lie inside the buffer, not overlap, and be representable in the document's encoding.
 */
export function applyEdits(doc: Pick<EditorDocument, "text" | "encoding">, edits: readonly TextEdit[]): string {
  const ordered = edits.map((e, index) => ({ ...e, index })).sort((a, b) => a.start - b.start || a.end - b.end);
  ordered.forEach((e, k) => {
    const field = `edits.${e.index}`;
    if (e.end < e.start || e.end > doc.text.length) {
      throw new LomiError("OUT_OF_RANGE", `Edit [${e.start}, ${e.end}) lies outside the buffer of ${doc.text.length} code units.`, { field });
    }
    const before = ordered[k - 1];
    if (before && e.start < before.end) throw new LomiError("OUT_OF_RANGE", `Edit [${e.start}, ${e.end}) overlaps edits.${before.index}.`, { field });
    if (!representable(doc.encoding, e.text)) {
      throw new LomiError("OUT_OF_RANGE", `The text of ${field} has characters the document's ${doc.encoding} encoding cannot hold.`, {
        field: `${field}.text`,
      });
    }
  });
  return ordered.reduceRight((text, e) => text.slice(0, e.start) + e.text + text.slice(e.end), doc.text);
}
