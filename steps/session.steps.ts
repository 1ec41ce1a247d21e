import { Given, When } from "@cucumber/cucumber";
import { readWorldFile } from "../simulator/world-file.js";
import { LomiWorld } from "./world.js";
import { kitPath } from "../protocol/kit-root.js";

const worldFile = (name: string) => kitPath("fixtures/worlds", `${name}.json`);

/** Lists workspaces, and plays the user approving the session if it is pending. */
export async function ensurePaired(world: LomiWorld, agent: string): Promise<void> {
  const first = await world.call(agent, "lomi_workspace_list", {});
  if (first.envelope.status === "ok") return;
  // A session the user has not approved answers PAIRING_REQUIRED to every tool: AUTH-01.
  world.expectError("PAIRING_REQUIRED", first, ["AUTH-01"]);
  await world.control.decide(LomiWorld.clientNameOf(agent), "approve");
  world.okData(await world.call(agent, "lomi_workspace_list", {}));
}

export async function connectTo(world: LomiWorld, agent: string, workspaceId: string): Promise<void> {
  world.agent(agent).connects.set(workspaceId, await world.callOk(agent, "lomi_connect", { workspaceId }));
}

Given("the Lomi world {string}", async function (this: LomiWorld, name: string) {
  await this.control.reset(readWorldFile(worldFile(name)), this.sim.seed);
});

Given("{agent} is paired", async function (this: LomiWorld, agent: string) {
  await ensurePaired(this, agent);
});

Given("{agent} is connected to workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  await ensurePaired(this, agent);
  await connectTo(this, agent, workspaceId);
});

When("{agent} connects to workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  const reply = await this.call(agent, "lomi_connect", { workspaceId });
  if (reply.envelope.status === "ok") this.agent(agent).connects.set(workspaceId, this.dataOf("lomi_connect", reply));
});

When("the user approves the pending session of {agent}", async function (this: LomiWorld, agent: string) {
  await this.control.decide(LomiWorld.clientNameOf(agent), "approve");
});

When("the user approves the pending session of {agent} for workspace {string} only", async function (this: LomiWorld, agent: string, workspaceId: string) {
  await this.control.decide(LomiWorld.clientNameOf(agent), "approve", [workspaceId]);
});

When("the user denies the pending session of {agent}", async function (this: LomiWorld, agent: string) {
  await this.control.decide(LomiWorld.clientNameOf(agent), "deny");
});

When("{agent} refreshes the panels of workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  await this.callOk(agent, "lomi_panel_list", { workspaceId });
});
