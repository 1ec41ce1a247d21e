import { Then, When } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { dispatchedId } from "./lomi.steps.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

// The user's answers to the decisions Lomi shows for operations waiting in awaiting_user.

When("the user approves the decision for {string}", async function (this: LomiWorld, alias: string) {
  await this.control.decideOperation(await dispatchedId(this, alias), "approve");
});

When("the user denies the decision for {string}", async function (this: LomiWorld, alias: string) {
  await this.control.decideOperation(await dispatchedId(this, alias), "deny");
});

Then("Lomi shows the user a decision for {string}", async function (this: LomiWorld, alias: string) {
  const operationId = await dispatchedId(this, alias);
  const decisions = await this.control.decisions();
  if (!decisions.some((d) => d.operationId === operationId))
    throw violation(`Lomi shows no decision for "${alias}" (${operationId}): ${boundedJson(decisions)}`);
});

Then("Lomi shows the user no decision", async function (this: LomiWorld) {
  const decisions = await this.control.decisions();
  if (decisions.length > 0) throw violation(`Lomi still shows decisions: ${boundedJson(decisions)}`);
});
