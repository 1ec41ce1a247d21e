import { When } from "@cucumber/cucumber";
import { configError } from "../harness/harness-error.js";
import { panelOf } from "./panel-targets.js";
import type { LomiWorld } from "./world.js";

/** The operationId Lomi itself saw for a named request: known even when the agent lost the reply. */
export async function dispatchedId(world: LomiWorld, alias: string): Promise<string> {
  const [first] = await world.dispatchesOf(alias);
  if (!first) throw configError(`Lomi saw no dispatch for "${alias}"`);
  return first.operationId;
}

When("the next dispatch of {tool} is held", async function (this: LomiWorld, tool: string) {
  await this.control.armFault("hold", tool);
});

When("the next dispatch of {tool} fails", async function (this: LomiWorld, tool: string) {
  await this.control.armFault("fail", tool);
});

When("the next dispatch of {tool} loses its reply", async function (this: LomiWorld, tool: string) {
  await this.control.armFault("lose-reply", tool);
});

When("Lomi completes the held dispatch of {string}", async function (this: LomiWorld, alias: string) {
  await this.control.release(await dispatchedId(this, alias), "complete");
});

When("Lomi fails the held dispatch of {string}", async function (this: LomiWorld, alias: string) {
  await this.control.release(await dispatchedId(this, alias), "fail");
});

When("Lomi honours the cancellation of {string}", async function (this: LomiWorld, alias: string) {
  await this.control.release(await dispatchedId(this, alias), "honour-cancel");
});

const UNIT_MS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000 };

When(/^the clock advances by (\d+) (second|minute|hour)s?$/, async function (this: LomiWorld, amount: string, unit: string) {
  await this.control.advanceClock(Number(amount) * UNIT_MS[unit]!);
});

When("the user changes the layout of workspace {string}", async function (this: LomiWorld, workspaceId: string) {
  await this.control.changeLayout(workspaceId);
});

When("the runtime of the terminal/browser of {string} restarts", async function (this: LomiWorld, alias: string) {
  const { panelId } = await panelOf(this, alias);
  await this.control.restartRuntime(panelId);
});

When("the broker crashes", async function (this: LomiWorld) {
  await this.crashBroker();
});

When("the broker restarts", async function (this: LomiWorld) {
  await this.restartBroker();
});

When("the broker crashes and restarts", async function (this: LomiWorld) {
  await this.crashBroker();
  await this.restartBroker();
});
