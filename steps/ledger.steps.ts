import { Then } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { expectSame } from "../harness/expected-found.js";
import type { LomiWorld } from "./world.js";

Then(/^Lomi saw (\d+) dispatch(?:es)? (?:of|for) "([^"]*)"$/, async function (this: LomiWorld, count: string, alias: string) {
  const dispatches = await this.dispatchesOf(alias);
  expectSame(`native dispatches of "${alias}"`, dispatches.length, Number(count), { seen: { label: "Lomi saw", value: dispatches } });
});

Then("Lomi saw no dispatch at all", async function (this: LomiWorld) {
  const dispatches = (await this.control.ledger()).filter((e) => e.kind === "dispatch");
  expectSame("native dispatches", dispatches.length, 0, { seen: { label: "Lomi saw", value: dispatches } });
});

Then("Lomi recorded no replay", async function (this: LomiWorld) {
  const replays = (await this.control.ledger()).filter((e) => e.kind === "replay");
  expectSame("replays in Lomi's ledger", replays.length, 0, { why: "the broker dispatched a permit twice", seen: { label: "Lomi recorded", value: replays } });
});

Then(/^Lomi saw (\d+) "([^"]*)" effects?$/, async function (this: LomiWorld, count: string, what: string) {
  const effects = (await this.control.ledger()).filter((e) => e.kind === "effect" && e.detail.what === what);
  expectSame(`"${what}" effects`, effects.length, Number(count), { seen: { label: "Lomi saw", value: effects } });
});

Then("the reply names the operation Lomi dispatched for {string}", async function (this: LomiWorld, alias: string) {
  const [first] = await this.dispatchesOf(alias);
  if (!first) throw violation(`Lomi saw no dispatch for "${alias}"`);
  expectSame("operationId", this.receiptOf().operationId, first.operationId, { why: `the operation Lomi dispatched for "${alias}"` });
});

Then("the workspace {string} has {int} {word} panel(s)", async function (this: LomiWorld, workspaceId: string, count: number, kind: string) {
  const snapshot = await this.control.snapshot();
  const ws = snapshot.workspaces.find((w) => w.workspaceId === workspaceId);
  expectSame(`${kind} panels of ${workspaceId}`, ws?.panels.filter((p) => p.kind === kind).length, count, { seen: { label: "its panels", value: ws?.panels } });
});

Then("Lomi dispatched {string} before {string}", async function (this: LomiWorld, first: string, second: string) {
  const [a] = await this.dispatchesOf(first);
  const [b] = await this.dispatchesOf(second);
  if (!a || !b) throw violation(`Lomi saw ${a ? "" : `no dispatch of "${first}"`}${!a && !b ? " and " : ""}${b ? "" : `no dispatch of "${second}"`}`);
  if (a.sequence > b.sequence)
    throw violation(`Lomi received "${second}" (ledger entry ${b.sequence}) before "${first}" (entry ${a.sequence}), which was admitted first`);
});
