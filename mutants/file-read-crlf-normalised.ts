import { createHash } from "node:crypto";
import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

/**
 * A broker seen in the wild reads files as text with universal newlines: what lomi_file_read gives
 * has LF where the file has CRLF, and its diskRevision hashes those bytes, not the file's.
 */
export const fileReadCrlfNormalised: Mutant = {
  name: "file-read-crlf-normalised",
  family: "REV",
  // Not REV-32: the read itself is wrong (REV-30), and a round trip's read step says so before any
  // write; file-write-crlf-normalised breaks the write.
  breaks: ["REV-30"],
  defect: "lomi_file_read turns CRLF into LF and hashes the result: the bytes and the diskRevision it gives are not the file's",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_file_read" && typeof okDataOf(reply)?.base64 === "string",
      (reply) => {
        const data = okDataOf(reply)!;
        const bytes = Buffer.from(data.base64, "base64");
        const lf = Buffer.from(bytes.toString("latin1").replace(/\r\n/g, "\n"), "latin1");
        if (lf.equals(bytes)) return reply;
        const text = typeof data.text === "string" ? { text: data.text.replace(/\r\n/g, "\n") } : {};
        return okReply({
          ...data,
          ...text,
          base64: lf.toString("base64"),
          lineEndings: "lf",
          size: lf.length,
          diskRevision: createHash("sha256").update(lf).digest("hex"),
        });
      },
    ),
  },
};
