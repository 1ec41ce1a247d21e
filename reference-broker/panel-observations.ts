import { CAPTURE_MIME_TYPE } from "../protocol/tools/capture.js";
import type { BrokerCore } from "./broker.js";
import { WithImages, type HandlerRegistry } from "./handler.js";

/** Observations of what a panel shows, answered by Lomi over the bridge: the broker relays, never renders. */
export function panelObservationHandlers(core: BrokerCore, pairing: () => Promise<string>): Pick<HandlerRegistry, "lomi_browser_snapshot" | "lomi_capture"> {
  return {
    lomi_browser_snapshot: async ({ workspaceId, panelId, browserGeneration }) =>
      core.native.browserSnapshot(await pairing(), { kind: "browser-snapshot", workspaceId, panelId, browserGeneration }),
    lomi_capture: async ({ workspaceId, panelId }) => {
      const { png, ...metadata } = await core.native.capture(await pairing(), { kind: "capture", workspaceId, panelId });
      return new WithImages(metadata, [{ type: "image", mimeType: CAPTURE_MIME_TYPE, data: png }]);
    },
  };
}
