import type { ImageBlock } from "../protocol/envelope.js";

/** An observation tool's handler: arguments already validated by the tool's input schema. */
export type Handler = (args: Record<string, unknown>) => Promise<unknown>;

/** What a handler answers when its reply carries image blocks beside the envelope's data (a capture). */
export class WithImages {
  constructor(
    readonly data: unknown,
    readonly images: ImageBlock[],
  ) {}
}
