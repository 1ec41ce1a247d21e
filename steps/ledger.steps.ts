import assert from "node:assert/strict";
import { Then } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

Then(/^Lomi saw (\d+) dispatch(?:es)? (?:of|for) "([^"]*)"$/, async function (this: LomiWorld, count: string, alias: string) {
  const dispatches = await this.dispatchesOf(alias);
  assert.equal(dispatches.length, Number(count), `native dispatches for "${alias}": ${boundedJson(dispatches)}`);
});

Then("Lomi saw no dispatch at all", async function (this: LomiWorld) {
  const dispatches = (await this.control.ledger()).filter((e) => e.kind === "dispatch");
  if (dispatches.length > 0) throw violation(`nothing should have been dispatched, yet Lomi saw: ${boundedJson(dispatches)}`);
});

Then("Lomi recorded no replay", async function (this: LomiWorld) {
  const replays = (await this.control.ledger()).filter((e) => e.kind === "replay");
  if (replays.length > 0) throw violation(`the broker dispatched a permit twice: ${boundedJson(replays)}`);
});

Then(/^Lomi saw (\d+) "([^"]*)" effects?$/, async function (this: LomiWorld, count: string, what: string) {
  const effects = (await this.control.ledger()).filter((e) => e.kind === "effect" && e.detail.what === what);
  assert.equal(effects.length, Number(count), `"${what}" effects: ${boundedJson(effects)}`);
});

Then("the reply names the operation Lomi dispatched for {string}", async function (this: LomiWorld, alias: string) {
  const [first] = await this.dispatchesOf(alias);
  if (!first) throw violation(`Lomi saw no dispatch for "${alias}"`);
  assert.equal(this.receiptOf().operationId, first.operationId);
});

Then("the workspace {string} has {int} {word} panel(s)", async function (this: LomiWorld, workspaceId: string, count: number, kind: string) {
  const snapshot = await this.control.snapshot();
  const ws = snapshot.workspaces.find((w) => w.workspaceId === workspaceId);
  assert.equal(ws?.panels.filter((p) => p.kind === kind).length, count, `panels of ${workspaceId}: ${boundedJson(ws?.panels)}`);
});

Then("Lomi dispatched {string} before {string}", async function (this: LomiWorld, first: string, second: string) {
  const [a] = await this.dispatchesOf(first);
  const [b] = await this.dispatchesOf(second);
  if (!a || !b) throw violation(`Lomi saw ${a ? "" : `no dispatch of "${first}"`}${!a && !b ? " and " : ""}${b ? "" : `no dispatch of "${second}"`}`);
  if (a.sequence > b.sequence) throw violation(`Lomi received "${second}" (ledger entry ${b.sequence}) before "${first}" (entry ${a.sequence}), which was admitted first`);
});
