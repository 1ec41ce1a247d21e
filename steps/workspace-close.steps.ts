import assert from "node:assert/strict";
import { Then, When } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import type { LomiWorld } from "./world.js";

const list = (names: string) => (names === "" ? [] : names.split(",").map((n) => n.trim()));

When("{agent} closes workspace {string} as {string}", async function (this: LomiWorld, agent: string, workspaceId: string, alias: string) {
  await this.send(alias, agent, "lomi_workspace_close", { workspaceId, retryEpoch: this.epochFor(agent, workspaceId).retryEpoch, requestKey: `close-${alias}` });
});

Then("Lomi asks the user whether to save {string} for {string}", async function (this: LomiWorld, subjects: string, alias: string) {
  const pending = (await this.control.pendingDecisions()).find((d) => d.operationId === this.operationId(alias));
  if (!pending) throw violation(`Lomi shows no decision for "${alias}"`);
  assert.deepEqual(pending.subjects, list(subjects), `the close guard should name the dirty files: ${JSON.stringify(pending)}`);
});

Then("Lomi asks the user nothing about {string}", async function (this: LomiWorld, alias: string) {
  const pending = (await this.control.pendingDecisions()).filter((d) => d.operationId === this.operationId(alias));
  if (pending.length > 0) throw violation(`Lomi still shows a decision for "${alias}": ${JSON.stringify(pending)}`);
});

When(/^the user (approves|denies) the decision "([^"]*)" waits on$/, async function (this: LomiWorld, answer: string, alias: string) {
  await this.control.decideOperation(this.operationId(alias), answer === "approves" ? "approve" : "deny");
});

Then(/^workspace "([^"]*)" is (open|closed) in Lomi$/, async function (this: LomiWorld, workspaceId: string, state: string) {
  const ws = (await this.control.snapshot()).workspaces.find((w) => w.workspaceId === workspaceId);
  assert.equal(ws?.open, state === "open", `workspace ${workspaceId} should be ${state}`);
});

Then("Lomi saved {string}, one file after the other", async function (this: LomiWorld, paths: string) {
  const saves = (await this.control.ledger()).filter((e) => e.kind === "effect" && e.detail.what === "file.saved");
  assert.deepEqual(saves.map((e) => e.detail.path), list(paths), `the ledger's saves: ${JSON.stringify(saves)}`);
});

Then("operation {string} lists the saved files {string} and the unsaved files {string}", async function (this: LomiWorld, alias: string, saved: string, unsaved: string) {
  const { result } = await this.settled(alias);
  const paths = (files: unknown) => (files as Array<{ path: string }> | undefined)?.map((f) => f.path);
  assert.deepEqual({ saved: paths(result?.savedFiles), unsaved: paths(result?.unsavedFiles) }, { saved: list(saved), unsaved: list(unsaved) }, JSON.stringify(result));
});
