import { Then, When } from "@cucumber/cucumber";
import { configError, violation } from "../harness/harness-error.js";
import { expectChanged, expectSame, shown } from "../harness/expected-found.js";
import type { SeenSnapshot } from "./panel-memory.js";
import { browserOf, elementIn, snapshotsOf } from "./panel-targets.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

/** The retry identity of an operation the agent sends in a workspace: its epoch and a key named after the alias. */
function identity(world: LomiWorld, agent: string, workspaceId: string, prefix: string, alias: string) {
  return { workspaceId, retryEpoch: world.epochFor(agent, workspaceId).retryEpoch, requestKey: `${prefix}-${alias}` };
}

When(
  "{agent} opens a browser on {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, url: string, workspaceId: string, alias: string) {
    const expectedRevision = this.revisions.get(workspaceId);
    if (!expectedRevision) throw configError(`no domainRevision observed for ${workspaceId}; connect or list panels first`);
    await this.send(alias, agent, "lomi_browser_open", { ...identity(this, agent, workspaceId, "open", alias), url, expectedRevision });
  },
);

When(
  "{agent} navigates the browser of {string} to {string} as {string}",
  async function (this: LomiWorld, agent: string, browser: string, url: string, alias: string) {
    const { workspaceId, panelId, browserGeneration } = await browserOf(this, browser);
    await this.send(alias, agent, "lomi_browser_navigate", { ...identity(this, agent, workspaceId, "navigate", alias), panelId, browserGeneration, url });
  },
);

When("{agent} takes a snapshot of the browser of {string}", async function (this: LomiWorld, agent: string, browser: string) {
  const { workspaceId, panelId, browserGeneration } = await browserOf(this, browser);
  const reply = await this.call(agent, "lomi_browser_snapshot", { workspaceId, panelId, browserGeneration });
  if (reply.envelope.status !== "ok") return;
  const seen = this.panelMemory.snapshots.get(browser) ?? [];
  seen.push(this.dataOf("lomi_browser_snapshot", reply));
  this.panelMemory.snapshots.set(browser, seen);
});

When("{agent} looks up the current runtime of the browser of {string}", async function (this: LomiWorld, agent: string, browser: string) {
  const { workspaceId, panelId } = await browserOf(this, browser);
  const { panels } = await this.callOk(agent, "lomi_panel_list", { workspaceId });
  const panel = panels.find((p) => p.panelId === panelId);
  const generation = panel?.kind === "browser" ? panel.browserGeneration : undefined;
  if (!generation) throw violation(`lomi_panel_list shows no browser runtime for panel ${panelId}: ${boundedJson(panels)}`);
  this.panelMemory.generations.set(browser, generation);
});

async function click(world: LomiWorld, agent: string, name: string, browser: string, alias: string, snapshot: SeenSnapshot) {
  const { workspaceId } = await browserOf(world, browser);
  await world.send(alias, agent, "lomi_browser_click", { ...identity(world, agent, workspaceId, "click", alias), ...elementIn(snapshot, name) });
}

When(
  "{agent} clicks {string} in the browser of {string} as {string}",
  async function (this: LomiWorld, agent: string, name: string, browser: string, alias: string) {
    await click(this, agent, name, browser, alias, snapshotsOf(this, browser).at(-1)!);
  },
);

When(
  "{agent} clicks {string} from the first snapshot of the browser of {string} as {string}",
  async function (this: LomiWorld, agent: string, name: string, browser: string, alias: string) {
    await click(this, agent, name, browser, alias, snapshotsOf(this, browser)[0]!);
  },
);

When(
  "{agent} uploads {string} to {string} in the browser of {string} as {string}",
  async function (this: LomiWorld, agent: string, fileRelative: string, name: string, browser: string, alias: string) {
    const { workspaceId } = await browserOf(this, browser);
    const target = elementIn(snapshotsOf(this, browser).at(-1)!, name);
    await this.send(alias, agent, "lomi_browser_upload", { ...identity(this, agent, workspaceId, "upload", alias), ...target, fileRelative });
  },
);

Then("the snapshot shows the page {string}", function (this: LomiWorld, title: string) {
  const data = this.dataOf("lomi_browser_snapshot");
  expectSame("title", data.title, title, { seen: { label: "the snapshot", value: data } });
});

Then("the snapshot shows {string} inside a child frame", function (this: LomiWorld, name: string) {
  const data = this.dataOf("lomi_browser_snapshot");
  const element = data.elements.find((e) => e.name === name);
  const frame = data.frames.find((f) => f.frameId === element?.frameId);
  if (!frame || frame.parentFrameId === null)
    throw violation(
      `"${name}" is not in a child frame: its frame is ${shown(frame?.frameId)}, with parentFrameId ${shown(frame?.parentFrameId)}\nthe snapshot: ${boundedJson(data)}`,
    );
});

Then("the latest snapshot of the browser of {string} shows {string} holding {string}", function (this: LomiWorld, browser: string, name: string, file: string) {
  const element = snapshotsOf(this, browser)
    .at(-1)!
    .elements.find((e) => e.name === name);
  expectSame(`files of "${name}"`, element?.files, [file], { seen: { label: "the element", value: element } });
});

Then("the snapshots of the browser of {string} share no reference", function (this: LomiWorld, browser: string) {
  const [first, second] = snapshotsOf(this, browser).slice(-2);
  if (!first || !second) throw configError(`take two snapshots of the browser of "${browser}" first`);
  expectChanged("snapshotId", second.snapshotId, first.snapshotId, { why: "each snapshot has a new one" });
  const reused = second.elements.filter((e) => first.elements.some((f) => f.elementRef === e.elementRef)).map((e) => e.elementRef);
  expectSame("element references also in the snapshot before", reused, [], { why: "element references are snapshot-scoped: a new snapshot has new ones" });
});

Then("operation {string} loaded {string} as a new navigation", async function (this: LomiWorld, alias: string, title: string) {
  const receipt = await this.settledAs(alias, ["lomi_browser_open", "lomi_browser_navigate"]);
  const page = receipt.tool === "lomi_browser_open" ? receipt.result?.page : receipt.result;
  expectSame("title", page?.title, title, { why: `operation "${alias}"`, seen: { label: "the receipt", value: receipt } });
  const earlier = [...this.panelMemory.snapshots.values()].flat().map((s) => s.navigationId);
  if (!page?.navigationId || earlier.includes(page.navigationId))
    throw violation(`each load has a new navigationId; ${alias} has ${page?.navigationId}, seen before: ${earlier.join(", ")}`);
});

Then("operation {string} attached {string} without confirming the server's acceptance", async function (this: LomiWorld, alias: string, fileName: string) {
  const receipt = await this.settledAs(alias, "lomi_browser_upload");
  const { result } = receipt;
  expectSame(
    "result",
    { fileName: result?.fileName, attached: result?.attached, eventsDispatched: result?.eventsDispatched, serverAcceptance: result?.serverAcceptance },
    { fileName, attached: true, eventsDispatched: ["input", "change"], serverAcceptance: "not_confirmed" },
    { why: `operation "${alias}"`, seen: { label: "the receipt", value: receipt } },
  );
});

Then("operation {string} started a navigation", async function (this: LomiWorld, alias: string) {
  const receipt = await this.settledAs(alias, "lomi_browser_click");
  if (typeof receipt.result?.startedNavigationId !== "string") throw violation(`a click on a link reports the navigation it started: ${boundedJson(receipt)}`);
});

/** Ground truth from Lomi, not from the broker: which page the panel shows now. */
Then("Lomi shows {string} in the browser of {string}", async function (this: LomiWorld, url: string, browser: string) {
  const { workspaceId, panelId } = await browserOf(this, browser);
  const ws = (await this.control.snapshot()).workspaces.find((w) => w.workspaceId === workspaceId);
  const panel = ws?.panels.find((p) => p.panelId === panelId);
  expectSame(`the URL Lomi shows in ${panelId}`, panel?.kind === "browser" ? panel.url : undefined, url, { seen: { label: "the panel", value: panel } });
});
