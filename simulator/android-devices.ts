import type { z } from "zod";
import type { androidDeviceSeed } from "../protocol/control-api.js";
import { LomiError } from "../protocol/errors.js";
import type { Random } from "../protocol/ports.js";
import type { PanelView } from "../protocol/tools/workspace.js";

export type AndroidPanel = Extract<PanelView, { kind: "android" }>;
type DeviceSeed = z.output<typeof androidDeviceSeed>;

export interface AndroidDevice {
  panel: AndroidPanel;
  screen: DeviceSeed["screen"];
  apps: DeviceSeed["apps"];
}

/** The Android runtimes behind android panels: a generation per runtime, a screen, installed apps. */
export class AndroidDevices {
  private readonly devices = new Map<string, AndroidDevice>();
  /** Generations that belonged to a panel before its runtime restarted. */
  private readonly retired = new Set<string>();

  constructor(private readonly random: Random) {}

  /** A seeded device and the panel that shows it. */
  add(seed: DeviceSeed): AndroidPanel {
    const panel: AndroidPanel = {
      kind: "android",
      panelId: seed.panelId,
      projectId: seed.projectId,
      title: seed.title,
      device: seed.device,
      generation: this.random.id("gen-"),
    };
    this.devices.set(seed.panelId, { panel, screen: seed.screen, apps: seed.apps });
    return panel;
  }

  /** The device of an android panel among these panels, if its current runtime is this generation. */
  current(panels: readonly PanelView[], panelId: string, generation: string): AndroidDevice {
    const device = panels.some((p) => p.panelId === panelId && p.kind === "android") ? this.devices.get(panelId) : undefined;
    if (!device) throw new LomiError("NOT_FOUND", `No Android panel ${panelId} in this workspace.`, { field: "panelId" });
    if (device.panel.generation === generation) return device;
    if (this.retired.has(generation)) {
      throw new LomiError(
        "STALE_RUNTIME",
        `Generation ${generation} of panel ${panelId} ended when its runtime restarted; read the panel list for the current generation.`,
        { field: "generation" },
      );
    }
    throw new LomiError("NOT_FOUND", `Panel ${panelId} has no runtime generation ${generation}.`, { field: "generation" });
  }

  /** The panel lives on with a new runtime generation; the old one is stale from now on. */
  restart(panel: AndroidPanel): { oldGeneration: string | null; generation: string } {
    const oldGeneration = panel.generation;
    if (oldGeneration) this.retired.add(oldGeneration);
    const generation = this.random.id("gen-");
    panel.generation = generation;
    return { oldGeneration, generation };
  }

  app(device: AndroidDevice, appId: string): DeviceSeed["apps"][number] {
    const app = device.apps.find((a) => a.appId === appId);
    if (!app) throw new LomiError("NOT_FOUND", `${appId} is not installed on ${device.panel.device}.`, { field: "appId" });
    return app;
  }

  /** Narrower than the schema: a tap must land on the screen. */
  requireOnScreen(device: AndroidDevice, x: number, y: number): void {
    if (x >= device.screen.width || y >= device.screen.height) {
      throw new LomiError("OUT_OF_RANGE", `(${x}, ${y}) is outside the ${device.screen.width}x${device.screen.height} screen of ${device.panel.device}.`, {
        field: x >= device.screen.width ? "input.x" : "input.y",
      });
    }
  }
}
