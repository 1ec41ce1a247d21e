import type { FileContent } from "../../protocol/tools/files.js";

// Views of a file's exact bytes. Nothing here changes a byte: CRLF, a BOM and non-UTF-8 encodings stay as they are.

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes as UTF-8 text, BOM kept; null when they are not valid UTF-8 (Latin-1, binary). */
export function utf8View(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

export function lineEndingsOf(bytes: Uint8Array): "lf" | "crlf" | "mixed" | "none" {
  let crlf = 0;
  let lf = 0;
  bytes.forEach((b, i) => {
    if (b === 0x0a) i > 0 && bytes[i - 1] === 0x0d ? crlf++ : lf++;
  });
  if (crlf === 0 && lf === 0) return "none";
  if (crlf > 0 && lf > 0) return "mixed";
  return crlf > 0 ? "crlf" : "lf";
}

/** The bytes a { text } (UTF-8) or { base64 } (exact bytes) content stands for. */
export function contentBytes(content: FileContent): Buffer {
  return "text" in content ? Buffer.from(content.text, "utf8") : Buffer.from(content.base64, "base64");
}
