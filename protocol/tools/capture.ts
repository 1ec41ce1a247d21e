import { z } from "zod";
import { field, id } from "../fields.js";
import { READ_ONLY, type ObservationContract } from "../tool-contract.js";

export const CAPTURE_MIME_TYPE = "image/png" as const;

/** What a capture shows, beside the image block that carries the PNG itself. */
export const captureMetadata = z.strictObject({
  panelId: id,
  kind: z.enum(["terminal", "browser", "android"]),
  /** The runtime the capture shows: its terminalSessionId, browserGeneration or Android generation. */
  runtimeGeneration: id.nullable(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  mimeType: z.literal(CAPTURE_MIME_TYPE),
});

export const capture = {
  name: "lomi_capture",
  kind: "observation",
  title: "Capture a panel as a PNG",
  description:
    "Captures what a panel shows now. The reply carries a standard MCP image block (image/png) and, in the envelope's data, the panel, its kind, the runtime generation shown, and the image's width and height.",
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId, panelId: field.panelId }),
  data: captureMetadata,
} satisfies ObservationContract;

/** What the broker asks Lomi for over the native bridge, and what Lomi answers: the metadata and the PNG. */
export const captureQuery = capture.input.extend({ kind: z.literal("capture") });
export const nativeCapture = captureMetadata.extend({ png: z.base64() });
