import { LomiError } from "../protocol/errors.js";

/** What each terminal session has printed, in order: command output and the echo of its input. */
export class TerminalOutputs {
  private readonly buffers = new Map<string, string>();

  write(terminalSessionId: string, text: string): void {
    this.buffers.set(terminalSessionId, (this.buffers.get(terminalSessionId) ?? "") + text);
  }

  /** A bounded page from the cursor (a character offset); a cursor past the end is refused rather than silently empty. */
  read(terminalSessionId: string, cursor: number, limit: number): { text: string; nextCursor: string; hasMore: boolean } {
    const all = this.buffers.get(terminalSessionId) ?? "";
    if (cursor > all.length)
      throw new LomiError("OUT_OF_RANGE", `cursor ${cursor} is past the end of the output (${all.length}); continue with a nextCursor this session returned.`, {
        field: "cursor",
      });
    const text = all.slice(cursor, cursor + limit);
    return { text, nextCursor: String(cursor + text.length), hasMore: cursor + text.length < all.length };
  }
}
