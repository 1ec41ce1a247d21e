import { buildToolResult, ok } from "../protocol/envelope.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

/** Pixels per point on the 2x display the broker's author had in mind. */
const SCALE = 2;
const inPoints = (pixels: number) => Math.max(1, Math.round(pixels / SCALE));

export const envCaptureSizeInPoints: Mutant = {
  name: "env-capture-size-in-points",
  family: "ENV",
  breaks: ["ENV-10"],
  defect: "a capture's data gives its size in points, as on a 2x display (half its pixels), so the width and height it states are not the PNG's",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_capture" && okDataOf(reply) !== undefined,
      (reply) => {
        const data = okDataOf(reply)!;
        const images = reply.content.filter((b) => b.type === "image");
        return buildToolResult(ok({ ...data, width: inPoints(data.width), height: inPoints(data.height) }), images);
      },
    ),
  },
};
