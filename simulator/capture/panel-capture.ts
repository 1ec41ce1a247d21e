import { ofKind } from "../../protocol/control-api.js";
import { LomiError } from "../../protocol/errors.js";
import type { z } from "zod";
import { CAPTURE_MIME_TYPE, type nativeCapture } from "../../protocol/tools/capture.js";
import type { BrowserDocument, BrowserFrame } from "../browser/browser-runtimes.js";
import type { NativeContext } from "../native-tool.js";
import type { Panel, WorkspaceState } from "../world-state.js";
import { CELL_HEIGHT, CELL_WIDTH, Canvas, type Rgb } from "./canvas.js";

const SCALE = 2;
const CELL_W = CELL_WIDTH * SCALE;
const CELL_H = CELL_HEIGHT * SCALE;
const PAD = 8;
const BAR = 28;

const INK: Rgb = [20, 20, 24];
const WHITE: Rgb = [255, 255, 255];
const CHROME: Rgb = [52, 58, 70];
const CHROME_TEXT: Rgb = [235, 238, 245];
const LINK: Rgb = [25, 90, 200];
const BUTTON: Rgb = [222, 226, 234];
const TERMINAL_BG: Rgb = [12, 14, 18];
const TERMINAL_TEXT: Rgb = [170, 235, 170];

const TERMINAL_COLS = 64;
const TERMINAL_ROWS = 18;
const BROWSER_WIDTH = TERMINAL_COLS * CELL_W + 2 * PAD;
const BROWSER_HEIGHT = 480;

type Capture = z.infer<typeof nativeCapture>;
type Of<K extends Panel["kind"]> = Extract<Panel, { kind: K }>;

/** A title bar across the top of a panel, the way Lomi draws panel chrome. */
function titleBar(canvas: Canvas, title: string): void {
  canvas.fill(0, 0, canvas.width, BAR, CHROME);
  canvas.text(PAD, (BAR - 7 * SCALE) / 2, title, CHROME_TEXT, SCALE, Math.floor((canvas.width - 2 * PAD) / CELL_W));
}

/** The terminal's text grid: each command started in this session, its scripted output once it exited. */
function terminalLines(ctx: NativeContext, panel: Of<"terminal">): string[] {
  const lines: string[] = [];
  const effects = ctx.ledger.entries().filter(ofKind("effect"));
  for (const started of effects.filter((e) => e.detail.what === "process.started" && e.detail.terminalSessionId === panel.terminalSessionId)) {
    const command = String(started.detail.command);
    lines.push(`$ ${command}`);
    const later = effects.filter((e) => e.operationId === started.operationId);
    if (later.some((e) => e.detail.what === "interrupt.sent")) lines.push("^C");
    const exited = later.find((e) => e.detail.what === "process.exited");
    if (exited) lines.push(...(ctx.commands[command]?.output ?? "").split("\n").filter((l) => l !== ""), `[exit ${String(exited.detail.exitCode)}]`);
  }
  lines.push("$ _");
  return lines.slice(-TERMINAL_ROWS);
}

function drawTerminal(ctx: NativeContext, panel: Of<"terminal">): Canvas {
  const canvas = new Canvas(BROWSER_WIDTH, BAR + TERMINAL_ROWS * CELL_H + 2 * PAD, TERMINAL_BG);
  titleBar(canvas, `${panel.title} - ${panel.cwdRelative || "."}`);
  terminalLines(ctx, panel).forEach((line, row) => canvas.text(PAD, BAR + PAD + row * CELL_H, line, TERMINAL_TEXT, SCALE, TERMINAL_COLS));
  return canvas;
}

/** Draws a frame's items from y down; returns where it stopped. */
function drawFrameItems(
  canvas: Canvas,
  frame: BrowserFrame,
  frames: BrowserFrame[],
  attached: BrowserDocument["attached"],
  x: number,
  y: number,
  width: number,
): number {
  const cols = Math.floor((width - 2 * PAD) / CELL_W);
  for (const item of frame.items) {
    if (item.kind === "heading") {
      canvas.text(x, y, item.text, INK, SCALE + 1, Math.floor(cols * (SCALE / (SCALE + 1))));
      y += CELL_HEIGHT * (SCALE + 1) + PAD;
    } else if (item.kind === "link") {
      const drawn = canvas.text(x, y, item.text, LINK, SCALE, cols);
      canvas.fill(x, y + 7 * SCALE + 2, drawn - SCALE, SCALE, LINK);
      y += CELL_H + PAD;
    } else if (item.kind === "button" || item.kind === "file-input") {
      const label = item.kind === "button" ? item.text : `${item.text}: ${attached.get(item)?.join(", ") ?? "no file chosen"}`;
      const w = Math.min(width - 2 * PAD, [...label].length * CELL_W + 2 * PAD);
      canvas.fill(x, y, w, CELL_H + PAD, BUTTON);
      canvas.frame(x, y, w, CELL_H + PAD, CHROME);
      canvas.text(x + PAD, y + PAD / 2 + SCALE, label, INK, SCALE, cols - 2);
      y += CELL_H + 2 * PAD;
    } else {
      const child = frames.find((f) => f.url === item.src && f.parentFrameId === frame.frameId);
      const top = y;
      canvas.text(x + PAD, y + PAD, item.text, CHROME, SCALE, cols - 2);
      y = child ? drawFrameItems(canvas, child, frames, attached, x + PAD, y + CELL_H + 2 * PAD, width - 2 * PAD) : y + CELL_H + 2 * PAD;
      canvas.frame(x, top, width - 2 * PAD, y - top, CHROME, SCALE);
      y += PAD;
    }
  }
  return y;
}

function drawBrowser(ctx: NativeContext, panel: Of<"browser">): Canvas {
  const canvas = new Canvas(BROWSER_WIDTH, BROWSER_HEIGHT, WHITE);
  const document = ctx.browsers.documentOf(panel.panelId);
  titleBar(canvas, document?.title || panel.title);
  canvas.fill(0, BAR, canvas.width, BAR, BUTTON);
  const address = document ? (document.httpStatus === 200 ? document.url : `${document.url}  (${document.httpStatus})`) : (panel.url ?? "about:blank");
  canvas.text(PAD, BAR + (BAR - 7 * SCALE) / 2, address, INK, SCALE, TERMINAL_COLS);
  const main = document?.frames.find((f) => f.parentFrameId === null);
  if (document && main) drawFrameItems(canvas, main, document.frames, document.attached, PAD, 2 * BAR + PAD, canvas.width);
  return canvas;
}

/** No emulator screen is simulated: a phone-shaped placeholder that names the device and runtime. */
function drawAndroid(panel: Of<"android">): Canvas {
  const canvas = new Canvas(360, 640, [30, 34, 44]);
  titleBar(canvas, panel.device);
  canvas.text(PAD, BAR + PAD, `gen ${panel.generation ?? "-"}`, CHROME_TEXT, 1, 56);
  const icons: Rgb[] = [
    [220, 80, 70],
    [70, 160, 90],
    [60, 120, 220],
    [230, 180, 50],
  ];
  for (let i = 0; i < 16; i++) canvas.fill(40 + (i % 4) * 76, 120 + Math.floor(i / 4) * 90, 48, 48, icons[i % icons.length]!);
  canvas.text(100, 520, "ANDROID", CHROME_TEXT, 3);
  return canvas;
}

/** Lomi's picture of a panel of this workspace as it is now, as a PNG with what it shows. */
export function capturePanel(ctx: NativeContext, ws: WorkspaceState, panelId: string): Capture {
  const panel = ws.panels.find((p) => p.panelId === panelId);
  if (!panel)
    throw new LomiError("NOT_FOUND", `No panel ${panelId} in workspace ${ws.workspaceId}; targets are panel IDs, never display names.`, { field: "panelId" });
  let canvas: Canvas;
  let runtimeGeneration: string | null;
  if (panel.kind === "terminal") {
    canvas = drawTerminal(ctx, panel);
    runtimeGeneration = panel.terminalSessionId;
  } else if (panel.kind === "browser") {
    canvas = drawBrowser(ctx, panel);
    runtimeGeneration = panel.browserGeneration;
  } else {
    canvas = drawAndroid(panel);
    runtimeGeneration = panel.generation;
  }
  return {
    panelId,
    kind: panel.kind,
    runtimeGeneration,
    width: canvas.width,
    height: canvas.height,
    mimeType: CAPTURE_MIME_TYPE,
    png: canvas.toPng().toString("base64"),
  };
}
