import { LomiError } from "../../protocol/errors.js";
import type { Random } from "../../protocol/ports.js";
import type { browserSnapshot } from "../../protocol/tools/browser.js";
import type { z } from "zod";
import type { BackgroundWork } from "../background-work.js";
import type { Panel, WorkspaceState } from "../world-state.js";
import { readPage, type PageItem } from "./page-model.js";
import { fetchPage } from "./page-server.js";

export type BrowserPanel = Extract<Panel, { kind: "browser" }>;

export interface BrowserFrame {
  frameId: string;
  parentFrameId: string | null;
  url: string;
  items: PageItem[];
}

/** One load of a page: its navigationId and frameIds last as long as it is the panel's document. */
export interface BrowserDocument {
  navigationId: string;
  url: string;
  httpStatus: number;
  title: string;
  frames: BrowserFrame[];
  /** File inputs and the names of the files attached to them, in this document only. */
  attached: Map<PageItem, string[]>;
}

interface SnapshotElement {
  frame: BrowserFrame;
  item: Extract<PageItem, { kind: "link" | "button" | "file-input" }>;
}

interface BrowserRuntime {
  panel: BrowserPanel;
  document: BrowserDocument | undefined;
  /** Only the latest snapshot of the current document is valid. */
  snapshot: { snapshotId: string; elements: Map<string, SnapshotElement> } | undefined;
  /** The navigation started last: an earlier one that finishes later does not replace its document. */
  latestNavigationId: string | undefined;
}

export type LoadOutcome = { committed: true; document: BrowserDocument } | { committed: false; code: "NATIVE_FAILURE" | "STALE_RUNTIME"; message: string };

export interface ElementTarget {
  panelId: string;
  browserGeneration: string;
  navigationId: string;
  snapshotId: string;
  frameId: string;
  elementRef: string;
}

export type SnapshotData = z.infer<typeof browserSnapshot.data>;

const isTarget = (item: PageItem): item is SnapshotElement["item"] => item.kind === "link" || item.kind === "button" || item.kind === "file-input";

/**
 * Lomi's browser runtimes: which document each browser panel shows, which snapshot references are
 * current, and which have gone stale. Pages come from the simulated web (page-server.ts).
 */
export class BrowserRuntimes {
  private readonly runtimes = new Map<string, BrowserRuntime>();
  /** References that were valid once: using one is STALE_*, using one never issued is NOT_FOUND. */
  private readonly retired = new Set<string>();

  constructor(
    private readonly random: Random,
    private readonly background: BackgroundWork,
  ) {}

  /** A new browser panel with its first runtime; no page yet. */
  addPanel(ws: WorkspaceState, projectId: string, url: string): BrowserPanel & { browserGeneration: string } {
    const panel = {
      kind: "browser",
      panelId: this.random.id("panel-"),
      projectId,
      title: new URL(url).host,
      browserGeneration: this.random.id("bgen-"),
      url: null,
    } satisfies BrowserPanel;
    ws.panels.push(panel);
    this.runtimes.set(panel.panelId, { panel, document: undefined, snapshot: undefined, latestNavigationId: undefined });
    return panel;
  }

  /** The exact current runtime of a browser panel of this workspace, or the typed reason it is not. */
  runtime(ws: WorkspaceState, panelId: string, browserGeneration: string): BrowserRuntime {
    const panel = ws.panels.find((p) => p.panelId === panelId);
    if (!panel)
      throw new LomiError("NOT_FOUND", `No panel ${panelId} in workspace ${ws.workspaceId}; targets are panel IDs, never display names.`, { field: "panelId" });
    if (panel.kind !== "browser") throw new LomiError("INVALID_ARGUMENT", `Panel ${panelId} is a ${panel.kind} panel, not a browser.`, { field: "panelId" });
    const runtime = this.runtimes.get(panelId)!;
    if (panel.browserGeneration !== browserGeneration) {
      if (this.retired.has(browserGeneration)) {
        throw new LomiError(
          "STALE_RUNTIME",
          `Browser generation ${browserGeneration} ended when its runtime restarted; read the panel list for the current browserGeneration.`,
          {
            field: "browserGeneration",
          },
        );
      }
      throw new LomiError("NOT_FOUND", `Panel ${panelId} has no browser generation ${browserGeneration}.`, { field: "browserGeneration" });
    }
    return runtime;
  }

  /** The document of a browser panel, if one has loaded (what a capture shows). */
  documentOf(panelId: string): BrowserDocument | undefined {
    return this.runtimes.get(panelId)?.document;
  }

  /**
   * Starts loading a URL; the load finishes as background work and `then` hears how it ended.
   * Returns the navigationId the load will have.
   */
  navigate(runtime: BrowserRuntime, url: string, then: (outcome: LoadOutcome) => void): string {
    const navigationId = this.random.id("nav-");
    const generation = runtime.panel.browserGeneration;
    runtime.latestNavigationId = navigationId;
    this.background.track(
      this.load(url).then((loaded) => {
        if (runtime.panel.browserGeneration !== generation) {
          return then({ committed: false, code: "STALE_RUNTIME", message: "The browser runtime restarted while the page loaded." });
        }
        if (!loaded) return then({ committed: false, code: "NATIVE_FAILURE", message: `No server answered ${url}.` });
        if (runtime.latestNavigationId !== navigationId) {
          return then({ committed: false, code: "NATIVE_FAILURE", message: "A later navigation replaced this one before it loaded." });
        }
        return then({ committed: true, document: this.commit(runtime, navigationId, loaded) });
      }),
    );
    return navigationId;
  }

  /** Fetches a page and the pages of its iframes (one level deep). */
  private async load(url: string) {
    const page = await fetchPage(url);
    if (!page) return undefined;
    const main = readPage(page.body, url);
    const children = await Promise.all(
      main.items.flatMap((item) =>
        item.kind === "iframe"
          ? [
              fetchPage(item.src).then((child) => ({
                url: item.src,
                items: child ? readPage(child.body, item.src).items.filter((i) => i.kind !== "iframe") : [],
              })),
            ]
          : [],
      ),
    );
    return { url, status: page.status, title: main.title, items: main.items, children };
  }

  private commit(runtime: BrowserRuntime, navigationId: string, loaded: NonNullable<Awaited<ReturnType<BrowserRuntimes["load"]>>>): BrowserDocument {
    this.retireDocument(runtime);
    const main: BrowserFrame = { frameId: this.random.id("frame-"), parentFrameId: null, url: loaded.url, items: loaded.items };
    const children = loaded.children.map((c) => ({ frameId: this.random.id("frame-"), parentFrameId: main.frameId, url: c.url, items: c.items }));
    const document: BrowserDocument = {
      navigationId,
      url: loaded.url,
      httpStatus: loaded.status,
      title: loaded.title,
      frames: [main, ...children],
      attached: new Map(),
    };
    runtime.document = document;
    runtime.panel.url = loaded.url;
    runtime.panel.title = loaded.title || new URL(loaded.url).host;
    return document;
  }

  /** A new snapshot of the current document: it retires the previous snapshot's references. */
  snapshot(ws: WorkspaceState, query: { panelId: string; browserGeneration: string }): SnapshotData {
    const runtime = this.runtime(ws, query.panelId, query.browserGeneration);
    const document = runtime.document;
    if (!document) throw new LomiError("NOT_FOUND", `Browser panel ${query.panelId} has not loaded a page yet.`, { field: "panelId" });
    this.retireSnapshot(runtime);
    const elements = new Map<string, SnapshotElement>();
    for (const frame of document.frames) for (const item of frame.items.filter(isTarget)) elements.set(this.random.id("el-"), { frame, item });
    const snapshotId = this.random.id("snap-");
    runtime.snapshot = { snapshotId, elements };
    return {
      panelId: query.panelId,
      browserGeneration: query.browserGeneration,
      navigationId: document.navigationId,
      snapshotId,
      url: document.url,
      title: document.title,
      frames: document.frames.map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url })),
      elements: [...elements].map(([elementRef, { frame, item }]) => ({
        elementRef,
        frameId: frame.frameId,
        role: item.kind,
        name: item.text,
        href: item.kind === "link" ? item.href : null,
        files: item.kind === "file-input" ? (document.attached.get(item) ?? []) : null,
      })),
    };
  }

  /** The element a click or upload names, checked reference by reference: stale, unknown, or current. */
  target(ws: WorkspaceState, t: ElementTarget): { runtime: BrowserRuntime; document: BrowserDocument; element: SnapshotElement } {
    const runtime = this.runtime(ws, t.panelId, t.browserGeneration);
    const document = runtime.document;
    if (!document || document.navigationId !== t.navigationId) throw this.refused("navigationId", t.navigationId, "document");
    if (runtime.snapshot?.snapshotId !== t.snapshotId) throw this.refused("snapshotId", t.snapshotId, "snapshot");
    const frame = document.frames.find((f) => f.frameId === t.frameId);
    if (!frame) throw this.refused("frameId", t.frameId, "frame");
    const element = runtime.snapshot.elements.get(t.elementRef);
    if (!element) throw this.refused("elementRef", t.elementRef, "element");
    if (element.frame !== frame) throw new LomiError("NOT_FOUND", `Element ${t.elementRef} is not in frame ${t.frameId}.`, { field: "frameId" });
    return { runtime, document, element };
  }

  attach(document: BrowserDocument, item: PageItem, fileName: string): void {
    document.attached.set(item, [fileName]);
  }

  /** The panel lives on with a new runtime, which restores the panel's page as a new navigation. */
  restart(panel: BrowserPanel): string {
    const runtime = this.runtimes.get(panel.panelId)!;
    if (panel.browserGeneration) this.retired.add(panel.browserGeneration);
    this.retireDocument(runtime);
    runtime.document = undefined;
    panel.browserGeneration = this.random.id("bgen-");
    if (panel.url) this.navigate(runtime, panel.url, () => undefined);
    return panel.browserGeneration;
  }

  private refused(field: keyof ElementTarget, value: string, what: string): LomiError {
    if (this.retired.has(value)) {
      return new LomiError(
        "STALE_REFERENCE",
        `${field} ${value} belongs to an earlier ${what}; references are not reusable: take a fresh lomi_browser_snapshot.`,
        { field },
      );
    }
    return new LomiError("NOT_FOUND", `No ${what} ${value} in this browser; take a lomi_browser_snapshot for current references.`, { field });
  }

  private retireSnapshot(runtime: BrowserRuntime): void {
    if (!runtime.snapshot) return;
    this.retired.add(runtime.snapshot.snapshotId);
    for (const ref of runtime.snapshot.elements.keys()) this.retired.add(ref);
    runtime.snapshot = undefined;
  }

  private retireDocument(runtime: BrowserRuntime): void {
    this.retireSnapshot(runtime);
    if (!runtime.document) return;
    this.retired.add(runtime.document.navigationId);
    for (const frame of runtime.document.frames) this.retired.add(frame.frameId);
  }
}
