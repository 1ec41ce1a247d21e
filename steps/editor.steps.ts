import { Given, Then, When } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { expectSame } from "../harness/expected-found.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

/** Lomi's own view of an open document, straight from the simulator. */
async function documentInLomi(world: LomiWorld, projectId: string, path: string) {
  const doc = (await world.control.files()).documents.find((d) => d.projectId === projectId && d.path === path);
  if (!doc) throw violation(`Lomi has no editor document for ${path} in ${projectId}`);
  return doc;
}

When("{agent} lists the editor documents of workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  await this.call(agent, "lomi_editor_documents", { workspaceId });
});

When(
  "{agent} inserts {string} at offset {int} of the document {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, text: string, offset: number, path: string, workspaceId: string, alias: string) {
    const { documentId, bufferRevision } = this.fileObservations.document(path);
    await this.sendIn(alias, agent, "lomi_editor_apply", workspaceId, {
      documentId,
      expectedBufferRevision: bufferRevision,
      edits: [{ start: offset, end: offset, text }],
    });
  },
);

Given(
  "the user types {string} at the end of {string} of project {string} in the editor",
  async function (this: LomiWorld, text: string, path: string, projectId: string) {
    await this.control.userTypes(projectId, path, text);
  },
);

Then("the editor buffer of {string} in project {string} contains {string}", async function (this: LomiWorld, path: string, projectId: string, text: string) {
  const doc = await documentInLomi(this, projectId, path);
  if (!doc.text.includes(text)) throw violation(`the buffer of ${path} lacks ${boundedJson(text)}\nthe buffer: ${boundedJson(doc.text)}`);
});

Then(
  "the editor buffer of {string} in project {string} does not contain {string}",
  async function (this: LomiWorld, path: string, projectId: string, text: string) {
    const doc = await documentInLomi(this, projectId, path);
    if (doc.text.includes(text))
      throw violation(`the buffer of ${path} holds ${boundedJson(text)}, which should not be there\nthe buffer: ${boundedJson(doc.text)}`);
  },
);

Then(
  /^the document "([^"]*)" of project "([^"]*)" is (dirty|clean) in Lomi$/,
  async function (this: LomiWorld, path: string, projectId: string, state: string) {
    expectSame(`dirty (${path} in Lomi)`, (await documentInLomi(this, projectId, path)).dirty, state === "dirty");
  },
);

Then(/^the listing shows "([^"]*)" as (dirty|clean) at buffer revision "([^"]*)"$/, function (this: LomiWorld, path: string, state: string, revision: string) {
  const { documents } = this.dataOf("lomi_editor_documents");
  const doc = documents.find((d) => d.path === path);
  expectSame(
    path,
    { dirty: doc?.dirty, bufferRevision: doc?.bufferRevision },
    { dirty: state === "dirty", bufferRevision: revision },
    { seen: { label: "the listing's document", value: doc } },
  );
});
