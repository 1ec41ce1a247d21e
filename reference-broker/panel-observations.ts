import type { z } from "zod";
import type { browserSnapshot } from "../protocol/tools/browser.js";
import { CAPTURE_MIME_TYPE, type capture } from "../protocol/tools/capture.js";
import type { BrokerCore } from "./broker.js";
import { WithImages, type Handler } from "./handler.js";

/** Observations of what a panel shows, answered by Lomi over the bridge: the broker relays, never renders. */
export function panelObservationHandlers(core: BrokerCore, pairing: () => Promise<string>): Record<string, Handler> {
  return {
    lomi_browser_snapshot: async (a) => {
      const { workspaceId, panelId, browserGeneration } = a as z.infer<typeof browserSnapshot.input>;
      return core.native.browserSnapshot(await pairing(), { kind: "browser-snapshot", workspaceId, panelId, browserGeneration });
    },
    lomi_capture: async (a) => {
      const { workspaceId, panelId } = a as z.infer<typeof capture.input>;
      const { png, ...metadata } = await core.native.capture(await pairing(), { kind: "capture", workspaceId, panelId });
      return new WithImages(metadata, [{ type: "image", mimeType: CAPTURE_MIME_TYPE, data: png }]);
    },
  };
}
