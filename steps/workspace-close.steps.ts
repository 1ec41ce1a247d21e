import { Then, When } from "@cucumber/cucumber";
import { ofKind } from "../protocol/control-api.js";
import { violation } from "../harness/harness-error.js";
import { expectSame } from "../harness/expected-found.js";
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
  if (missing.length > 0) throw violation(`the close guard does not name ${missing.join(", ")}\nthe question: ${boundedJson(decision.question)}`);
});

Then(/^workspace "([^"]*)" is (open|closed) in Lomi$/, async function (this: LomiWorld, workspaceId: string, state: string) {
  const ws = (await this.control.snapshot()).workspaces.find((w) => w.workspaceId === workspaceId);
  expectSame(`open (${workspaceId} in Lomi)`, ws?.open, state === "open");
});

Then("Lomi saved {string}, one file after the other", async function (this: LomiWorld, paths: string) {
  const saves = (await this.control.ledger()).filter(ofKind("effect")).filter((e) => e.detail.what === "file.saved");
  expectSame(
    "the files saved, in order",
    saves.map((e) => e.detail.path),
    list(paths),
    { seen: { label: "the ledger's saves", value: saves } },
  );
});

Then(
  "operation {string} lists the saved files {string} and the unsaved files {string}",
  async function (this: LomiWorld, alias: string, saved: string, unsaved: string) {
    const { result } = await this.settledAs(alias, "lomi_workspace_close");
    const paths = (files: Array<{ path: string }> | undefined) => files?.map((f) => f.path);
    expectSame(
      "",
      { savedFiles: paths(result?.savedFiles), unsavedFiles: paths(result?.unsavedFiles) },
      { savedFiles: list(saved), unsavedFiles: list(unsaved) },
      { why: `operation "${alias}"`, seen: { label: "its result", value: result } },
    );
  },
);
