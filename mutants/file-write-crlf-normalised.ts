import { fileWrite } from "../protocol/tools/files.js";
import type { Mutant } from "./mutant.js";
import { sessionWrappingPicked } from "./rewriting-session.js";

/** Bytes as a text-mode writer leaves them: every CRLF written as LF. */
const lf = (bytes: Buffer) => Buffer.from(bytes.toString("latin1").replace(/\r\n/g, "\n"), "latin1");

/**
 * A broker that writes files as text with universal newlines: what lomi_file_write sends Lomi has LF
 * where the agent's bytes had CRLF.
 */
export const fileWriteCrlfNormalised: Mutant = {
  name: "file-write-crlf-normalised",
  family: "REV",
  breaks: ["REV-32"],
  defect: "lomi_file_write turns CRLF into LF in the bytes it writes: a file read and written back loses its line endings",
  parts: {
    // Only a write its schema takes: a refused one is refused as sent.
    session: sessionWrappingPicked(
      ({ tool, args }) =>
        tool === "lomi_file_write" && typeof (args.content as { base64?: unknown } | undefined)?.base64 === "string" && fileWrite.input.safeParse(args).success,
      ({ call }, name, args) => {
        const { base64 } = args.content as { base64: string };
        return call(name, { ...args, content: { base64: lf(Buffer.from(base64, "base64")).toString("base64") } });
      },
    ),
  },
};
