import { PNG } from "pngjs";
import { z } from "zod";
import { CAPTURE_MIME_TYPE } from "../../protocol/tools/capture.js";
import type { Envelope } from "../../protocol/envelope.js";
import { violation } from "../harness-error.js";
import { messageOf } from "../../protocol/errors.js";

export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, row by row. */
  pixels: Buffer;
}

/** How many decoded PNGs are kept, the last decoded first to go: a capture's image is decoded by the reply checks and again by its step. */
const DECODED_KEPT = 16;
const decoded = new Map<string, DecodedImage>();

/**
 * A PNG's base64 data decoded, or the same image decoded moments ago: the reply checks and the
 * capture step decode each capture, and a judge that makes run after run (teeth) meets the same
 * captures in each. Its readers compare its pixels, never change them. A PNG that does not decode throws.
 */
function decodedPng(data: string): DecodedImage {
  const known = decoded.get(data);
  if (known) return known;
  const png = PNG.sync.read(Buffer.from(data, "base64"));
  const image = { width: png.width, height: png.height, pixels: png.data };
  decoded.set(data, image);
  if (decoded.size > DECODED_KEPT) decoded.delete(decoded.keys().next().value!);
  return image;
}

/** Data that describes a PNG; its width and height are whatever the broker said, compared with the image's. */
const describesPng = z.looseObject({ mimeType: z.literal(CAPTURE_MIME_TYPE), width: z.unknown(), height: z.unknown() });

/**
 * ENV-10 on every reply: each image block claims image/png and its data decodes as a PNG; a reply
 * whose data describes a PNG (mimeType image/png, width, height) carries exactly one such block, of that size.
 */
export function checkImageBlocks(tool: string, content: unknown, envelope: Envelope): DecodedImage[] {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: unknown; mimeType?: unknown; data?: unknown }>) : [];
  const images = blocks
    .filter((b) => b.type === "image")
    .map((block, n) => {
      if (block.mimeType !== CAPTURE_MIME_TYPE)
        throw violation(`${tool}'s image block ${n} claims ${String(block.mimeType)}, not ${CAPTURE_MIME_TYPE}.`, ["ENV-10"]);
      if (typeof block.data !== "string") throw violation(`${tool}'s image block ${n} has no base64 data.`, ["ENV-10"]);
      try {
        return decodedPng(block.data);
      } catch (error) {
        throw violation(`${tool}'s image block ${n} does not decode as a PNG: ${messageOf(error)}`, ["ENV-10"]);
      }
    });
  const data = envelope.status === "ok" ? describesPng.safeParse(envelope.data).data : undefined;
  if (data) {
    const [image] = images;
    if (!image || images.length !== 1)
      throw violation(`${tool}'s data describes a PNG, yet the reply carries ${images.length} image blocks, not one.`, ["ENV-10"]);
    if (image.width !== data.width || image.height !== data.height) {
      throw violation(`${tool}'s data says ${String(data.width)}x${String(data.height)}, its PNG is ${image.width}x${image.height}.`, ["ENV-10"]);
    }
  }
  return images;
}
