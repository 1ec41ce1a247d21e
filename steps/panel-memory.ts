import type { z } from "zod";
import type { DecodedImage } from "../harness/contract-checks/image-blocks.js";
import type { browserSnapshot } from "../protocol/tools/browser.js";
import type { captureMetadata } from "../protocol/tools/capture.js";

export type SeenSnapshot = z.infer<typeof browserSnapshot.data>;
export type SeenCapture = z.infer<typeof captureMetadata> & { image: DecodedImage };

/** What the agents of a scenario saw of panels: browser snapshots and runtimes, captures. */
export class PanelMemory {
  /** Snapshots taken per browser (named by the alias of the operation that opened it), oldest first. */
  readonly snapshots = new Map<string, SeenSnapshot[]>();
  /** The browserGeneration an agent last read from the panel list, per browser alias. */
  readonly generations = new Map<string, string>();
  /** Captures in the order taken. */
  readonly captures: SeenCapture[] = [];
}
