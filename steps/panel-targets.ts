import { configError, violation } from "../harness/harness-error.js";
import type { ReceiptOf } from "../protocol/tools/mutations.js";
import type { SeenSnapshot } from "./panel-memory.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

/** The operations whose result names a panel: the ones that make one, and a launch in one. */
const PANEL_OPERATIONS = ["lomi_terminal_create", "lomi_browser_open", "lomi_android_launch"] as const;

/** The panel an operation made or acted in, and the workspace it is in. */
function panelNamedBy(world: LomiWorld, alias: string, receipt: ReceiptOf<(typeof PANEL_OPERATIONS)[number]>) {
  const panelId = receipt.result?.panelId;
  if (typeof panelId !== "string") throw configError(`operation "${alias}" has no panelId in its result: ${boundedJson(receipt)}`);
  return { workspaceId: String(world.request(alias).args.workspaceId), panelId };
}

export async function panelOf(world: LomiWorld, alias: string): Promise<{ workspaceId: string; panelId: string }> {
  return panelNamedBy(world, alias, await world.settledAs(alias, PANEL_OPERATIONS));
}

/** The browser an open made, at the runtime the agent knows of: the open's, or the one it read since. */
export async function browserOf(world: LomiWorld, alias: string) {
  const opened = await world.settledAs(alias, "lomi_browser_open");
  const { workspaceId, panelId } = panelNamedBy(world, alias, opened);
  const browserGeneration = world.panelMemory.generations.get(alias) ?? opened.result?.browserGeneration;
  if (typeof browserGeneration !== "string") throw configError(`operation "${alias}" has no browserGeneration in its result`);
  return { workspaceId, panelId, browserGeneration };
}

export function snapshotsOf(world: LomiWorld, alias: string): SeenSnapshot[] {
  const seen = world.panelMemory.snapshots.get(alias);
  if (!seen?.length) throw configError(`no snapshot of the browser of "${alias}" was taken`);
  return seen;
}

/** An element the agent saw in a snapshot, by its name, with every reference a click or upload needs. */
export function elementIn(snapshot: SeenSnapshot, name: string) {
  const element = snapshot.elements.find((e) => e.name === name);
  if (!element) throw violation(`snapshot ${snapshot.snapshotId} shows no element named "${name}": ${boundedJson(snapshot.elements.map((e) => e.name))}`);
  return {
    panelId: snapshot.panelId,
    browserGeneration: snapshot.browserGeneration,
    navigationId: snapshot.navigationId,
    snapshotId: snapshot.snapshotId,
    frameId: element.frameId,
    elementRef: element.elementRef,
  };
}
