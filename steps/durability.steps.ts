import { Given, Then, When } from "@cucumber/cucumber";
import { notApplicable, violation } from "../harness/harness-error.js";
import type { LomiWorld } from "./world.js";

Given("the broker runs with the fault hook {string} armed", async function (this: LomiWorld, hook: string) {
  await this.armBrokerFaults([hook]);
});

When("the broker dies during the next call", function (this: LomiWorld) {
  this.expectDeathOnNextCall();
});

Then("a second broker instance on the same store is refused", async function (this: LomiWorld) {
  if (!this.adapter.probeSecondInstance) throw notApplicable(`${this.adapter.description} cannot start a second instance of itself`);
  const probe = await this.adapter.probeSecondInstance();
  if (!probe.refused) throw violation(`a second broker instance ran on the store of the first: ${probe.detail}`);
  if (!/store|in use|lock/i.test(probe.detail)) throw violation(`the second instance was refused without a clear reason: ${probe.detail}`);
});
