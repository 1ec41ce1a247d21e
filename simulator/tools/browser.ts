import path from "node:path";
import { LomiError } from "../../protocol/errors.js";
import { browserClick, browserNavigate, browserOpen, browserUpload } from "../../protocol/tools/browser.js";
import type { BrowserDocument, LoadOutcome } from "../browser/browser-runtimes.js";
import { recordEffect, type NativeContext, type NativeOperation, type NativeTool } from "../native-tool.js";
import { WorldState } from "../world-state.js";

/** Browser panels load web pages only: a file, script or data URL is not Lomi's to open for an agent. */
function requireWebUrl(url: string): void {
  const { protocol } = new URL(url);
  if (protocol !== "http:" && protocol !== "https:") {
    throw new LomiError("PERMISSION_DENIED", `Browser panels load http and https pages only, not ${protocol} URLs.`, { field: "url" });
  }
}

function loadedPage(document: BrowserDocument) {
  return { navigationId: document.navigationId, url: document.url, title: document.title, httpStatus: document.httpStatus };
}

function pageLoaded(ctx: NativeContext, op: NativeOperation, panelId: string, document: BrowserDocument): void {
  recordEffect(ctx, op, { what: "page.loaded", panelId, navigationId: document.navigationId, url: document.url, httpStatus: document.httpStatus });
}

const failure = (outcome: Extract<LoadOutcome, { committed: false }>) => ({ code: outcome.code, message: outcome.message });

export const nativeBrowserOpen: NativeTool<typeof browserOpen.input> = {
  name: browserOpen.name,
  args: browserOpen.input,
  check(ctx, { ws, args }) {
    requireWebUrl(args.url);
    ctx.world.requireRevision(ws, args.expectedRevision);
  },
  start(ctx, op, settle) {
    const panel = ctx.browsers.addPanel(op.ws, op.projectId, op.args.url);
    const domainRevision = ctx.world.bumpRevision(op.ws);
    const opened = { panelId: panel.panelId, browserGeneration: panel.browserGeneration, domainRevision };
    recordEffect(ctx, op, { what: "browser.opened", ...opened });
    op.progress = { phase: "running", effectState: "partial" };
    const runtime = ctx.browsers.runtime(op.ws, panel.panelId, opened.browserGeneration);
    ctx.browsers.navigate(runtime, op.args.url, (outcome) => {
      if (outcome.committed) {
        pageLoaded(ctx, op, panel.panelId, outcome.document);
        settle(op, { state: "succeeded", effectState: "complete", result: { ...opened, page: loadedPage(outcome.document) }, error: null });
      } else {
        // The panel exists (the layout changed) but shows no page: a partial effect.
        settle(op, { state: "failed", effectState: "partial", result: { ...opened, page: null }, error: failure(outcome) });
      }
    });
  },
};

export const nativeBrowserNavigate: NativeTool<typeof browserNavigate.input> = {
  name: browserNavigate.name,
  args: browserNavigate.input,
  check(ctx, { ws, args }) {
    requireWebUrl(args.url);
    ctx.browsers.runtime(ws, args.panelId, args.browserGeneration);
  },
  start(ctx, op, settle) {
    const { panelId, browserGeneration } = op.args;
    const runtime = ctx.browsers.runtime(op.ws, panelId, browserGeneration);
    ctx.browsers.navigate(runtime, op.args.url, (outcome) => {
      if (outcome.committed) {
        pageLoaded(ctx, op, panelId, outcome.document);
        settle(op, { state: "succeeded", effectState: "complete", result: { panelId, browserGeneration, ...loadedPage(outcome.document) }, error: null });
      } else {
        // The previous document is still shown: nothing changed.
        settle(op, { state: "failed", effectState: "none", result: null, error: failure(outcome) });
      }
    });
  },
};

export const nativeBrowserClick: NativeTool<typeof browserClick.input> = {
  name: browserClick.name,
  args: browserClick.input,
  check(ctx, { ws, args }) {
    ctx.browsers.target(ws, args);
  },
  start(ctx, op, settle) {
    const { runtime, element } = ctx.browsers.target(op.ws, op.args);
    const { panelId, browserGeneration, navigationId, frameId, elementRef } = op.args;
    recordEffect(ctx, op, { what: "click.dispatched", panelId, navigationId, frameId, elementRef, role: element.item.kind, name: element.item.text });
    // A link's navigation is a consequence of the click, recorded under it, but not awaited by it.
    const startedNavigationId =
      element.item.kind === "link"
        ? ctx.browsers.navigate(runtime, element.item.href, (outcome) => {
            if (outcome.committed) pageLoaded(ctx, op, panelId, outcome.document);
          })
        : null;
    settle(op, {
      state: "succeeded",
      effectState: "complete",
      result: { panelId, browserGeneration, navigationId, elementRef, clickDispatched: true, startedNavigationId },
      error: null,
    });
  },
};

export const nativeBrowserUpload: NativeTool<typeof browserUpload.input> = {
  name: browserUpload.name,
  args: browserUpload.input,
  check(ctx, { ws, args }) {
    WorldState.requireInsideProject(args.fileRelative, "fileRelative");
    const { element } = ctx.browsers.target(ws, args);
    if (element.item.kind !== "file-input") {
      throw new LomiError("INVALID_ARGUMENT", `Element ${args.elementRef} is a ${element.item.kind}, not a file input.`, { field: "elementRef" });
    }
  },
  start(ctx, op, settle) {
    const { document, element } = ctx.browsers.target(op.ws, op.args);
    const { panelId, browserGeneration, navigationId, elementRef, fileRelative } = op.args;
    const fileName = path.posix.basename(fileRelative);
    ctx.browsers.attach(document, element.item, fileName);
    recordEffect(ctx, op, { what: "file.attached", panelId, navigationId, elementRef, fileRelative });
    const eventsDispatched = ["input", "change"];
    recordEffect(ctx, op, { what: "events.dispatched", panelId, navigationId, elementRef, events: eventsDispatched });
    // Attachment and events are the whole postcondition; whether a server ever accepts the file is unknown here.
    settle(op, {
      state: "succeeded",
      effectState: "complete",
      result: { panelId, browserGeneration, navigationId, elementRef, fileName, attached: true, eventsDispatched, serverAcceptance: "not_confirmed" },
      error: null,
    });
  },
};

export const BROWSER_TOOLS = [nativeBrowserOpen, nativeBrowserNavigate, nativeBrowserClick, nativeBrowserUpload];
