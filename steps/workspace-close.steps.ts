import assert from "node:assert/strict";
import { Then, When } from "@cucumber/cucumber";
import { ofKind } from "../protocol/control-api.js";
import { violation } from "../harness/harness-error.js";
import { dispatchedId } from "./lomi.steps.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

const list = (names: string) => (names === "" ? [] : names.split(",").map((n) => n.trim()));

When("{agent} closes workspace {string} as {string}", async function (this: LomiWorld, agent: string, workspaceId: string, alias: string) {
  await this.sendIn(alias, agent, "lomi_workspace_close", workspaceId, {});
});

Then("the decision Lomi shows for {string} names the files {string}", async function (this: LomiWorld, alias: string, files: string) {
  const operationId = await dispatchedId(this, alias);
  const decision = (await this.control.decisions()).find((d) => d.operationId === operationId);
  if (!decision) throw violation(`Lomi shows no decision for "${alias}"`);
  const missing = list(files).filter((f) => !decision.question.includes(f));
  if (missing.length > 0) throw violation(`the close guard should name ${missing.join(", ")}: ${boundedJson(decision.question)}`);
});

Then(/^workspace "([^"]*)" is (open|closed) in Lomi$/, async function (this: LomiWorld, workspaceId: string, state: string) {
  const ws = (await this.control.snapshot()).workspaces.find((w) => w.workspaceId === workspaceId);
  assert.equal(ws?.open, state === "open", `workspace ${workspaceId} should be ${state}`);
});

Then("Lomi saved {string}, one file after the other", async function (this: LomiWorld, paths: string) {
  const saves = (await this.control.ledger()).filter(ofKind("effect")).filter((e) => e.detail.what === "file.saved");
  assert.deepEqual(saves.map((e) => e.detail.path), list(paths), `the ledger's saves: ${boundedJson(saves)}`);
});

Then("operation {string} lists the saved files {string} and the unsaved files {string}", async function (this: LomiWorld, alias: string, saved: string, unsaved: string) {
  const { result } = await this.settledAs(alias, "lomi_workspace_close");
  const paths = (files: Array<{ path: string }> | undefined) => files?.map((f) => f.path);
  assert.deepEqual({ saved: paths(result?.savedFiles), unsaved: paths(result?.unsavedFiles) }, { saved: list(saved), unsaved: list(unsaved) }, JSON.stringify(result));
});
