import { Then, When } from "@cucumber/cucumber";
import { configError, violation } from "../harness/harness-error.js";
import { expectSame } from "../harness/expected-found.js";
import { checkImageBlocks } from "../harness/contract-checks/image-blocks.js";
import type { SeenCapture } from "./panel-memory.js";
import { panelOf } from "./panel-targets.js";
import type { LomiWorld } from "./world.js";

/**
 * What a capture shows (its panel, kind and runtime, a picture that follows the panel) is ENV-11's
 * wording, whichever rules the scenario also cites: ENV-10 (the PNG itself) is judged on every reply.
 */
const SHOWS_NOW = ["ENV-11"];

async function capture(world: LomiWorld, agent: string, alias: string, workspaceId?: string): Promise<void> {
  const panel = await panelOf(world, alias);
  const reply = await world.call(agent, "lomi_capture", { workspaceId: workspaceId ?? panel.workspaceId, panelId: panel.panelId });
  if (reply.envelope.status !== "ok") return;
  // The reply checks have already decoded it (ENV-10); decoded again here to keep its pixels.
  const [image] = checkImageBlocks(reply.tool, reply.raw.content, reply.envelope);
  if (!image) throw violation(`lomi_capture answered ok without an image block`, ["ENV-10"]);
  world.panelMemory.captures.push({ ...world.dataOf("lomi_capture", reply), image });
}

When("{agent} captures the panel of {string}", async function (this: LomiWorld, agent: string, alias: string) {
  await capture(this, agent, alias);
});

When("{agent} captures the panel of {string} through workspace {string}", async function (this: LomiWorld, agent: string, alias: string, workspaceId: string) {
  await capture(this, agent, alias, workspaceId);
});

/** The capture taken `back` captures before the latest one (0: the latest). */
function takenCapture(world: LomiWorld, back = 0): SeenCapture {
  const { captures } = world.panelMemory;
  const shot = captures[captures.length - 1 - back];
  if (!shot) throw configError(`this needs ${back + 1} captures; ${captures.length} were taken`);
  return shot;
}

/** Distinct colours in an RGBA image, counted up to `enough`. */
function colours(pixels: Buffer, enough: number): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length && seen.size < enough; i += 4) seen.add(pixels.readUInt32BE(i));
  return seen.size;
}

/** The runtime Lomi itself says the panel has now (ground truth, not the broker's word). */
async function currentRuntime(world: LomiWorld, panelId: string): Promise<string | null | undefined> {
  for (const ws of (await world.control.snapshot()).workspaces) {
    const panel = ws.panels.find((p) => p.panelId === panelId);
    if (panel) return panel.kind === "terminal" ? panel.terminalSessionId : panel.kind === "browser" ? panel.browserGeneration : panel.generation;
  }
  return undefined;
}

Then("the capture shows the {word} panel of {string} at its current runtime", async function (this: LomiWorld, kind: string, alias: string) {
  const shot = takenCapture(this);
  const { panelId } = await panelOf(this, alias);
  expectSame(
    "",
    { panelId: shot.panelId, kind: shot.kind, runtimeGeneration: shot.runtimeGeneration },
    { panelId, kind, runtimeGeneration: await currentRuntime(this, panelId) },
    { why: "the capture's data names the panel, its kind and its current runtime", rules: SHOWS_NOW },
  );
  // A flat image shows nothing of the panel: text and chrome need at least three colours.
  if (colours(shot.image.pixels, 3) < 3) throw violation(`the ${shot.width}x${shot.height} capture of ${panelId} is blank`, SHOWS_NOW);
});

Then("the capture differs from the one before", function (this: LomiWorld) {
  const [before, after] = [takenCapture(this, 1), takenCapture(this)];
  if (before.width === after.width && before.height === after.height && before.image.pixels.equals(after.image.pixels)) {
    throw violation(`two captures (${before.panelId}, ${after.panelId}) are pixel for pixel the same, though what they show changed`, SHOWS_NOW);
  }
});

Then("the capture is the same as the one before", function (this: LomiWorld) {
  const [before, after] = [takenCapture(this, 1), takenCapture(this)];
  if (before.image.pixels.equals(after.image.pixels)) return;
  expectSame("size", `${after.width}x${after.height}`, `${before.width}x${before.height}`, {
    why: "the capture before's: a panel that did not change captures the same",
    rules: SHOWS_NOW,
  });
  const changed = before.image.pixels.findIndex((byte, i) => after.image.pixels[i] !== byte);
  throw violation(
    `the capture differs from the one before from pixel ${Math.floor(changed / 4)} of ${before.width * before.height} on (a panel that did not change captures the same)`,
    SHOWS_NOW,
  );
});
