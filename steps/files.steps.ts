import { createHash } from "node:crypto";
import { Given, Then, When } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { expectBytes, expectSame } from "../harness/expected-found.js";
import { encodeBuffer } from "../simulator/files/editor-document.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

/** "43 61 66 e9" → those bytes. */
const bytesOfHex = (hex: string) => Buffer.from(hex.replace(/\s+/g, ""), "hex");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Lomi's ground truth for one path of a project, straight from the simulator. */
async function entryInLomi(world: LomiWorld, projectId: string, path: string) {
  const { projects } = await world.control.files();
  return projects.find((p) => p.projectId === projectId)?.entries.find((e) => e.path === path);
}

/** The last reply, which must be a lomi_file_read, with its bytes decoded. */
function lastRead(world: LomiWorld) {
  const data = world.dataOf("lomi_file_read");
  return { ...data, bytes: Buffer.from(data.base64, "base64") };
}

/** Writes content to a path on the diskRevision the agent last read of it, fresh or not. */
function write(world: LomiWorld, agent: string, workspaceId: string, path: string, alias: string, content: Record<string, string>) {
  return world.sendIn(alias, agent, "lomi_file_write", workspaceId, { path, expectedDiskRevision: world.fileObservations.read(path).diskRevision, content });
}

/**
 * A read is judged against Lomi's own file as it is read: bytes or a diskRevision other than the file's
 * is a finding about the read (REV-30), whatever the scenario goes on to do with it; the bytes of the
 * file's dirty editor buffer given for the disk's are REV-34's (the buffer is not the disk).
 */
When("{agent} reads the file {string} in workspace {string}", async function (this: LomiWorld, agent: string, path: string, workspaceId: string) {
  const reply = await this.call(agent, "lomi_file_read", { workspaceId, path });
  if (reply.envelope.status !== "ok") return;
  const read = lastRead(this);
  const { projects, documents } = await this.control.files();
  const entry = projects.find((p) => p.projectId === read.projectId)?.entries.find((e) => e.path === read.path);
  if (typeof entry?.base64 !== "string") return;
  const held = Buffer.from(entry.base64, "base64");
  const buffer = documents.find((d) => d.dirty && d.projectId === read.projectId && d.path === read.path);
  const bufferGiven = buffer !== undefined && !read.bytes.equals(held) && read.bytes.equals(encodeBuffer(buffer));
  const finding = bufferGiven
    ? { why: `Lomi holds ${path} so on disk; lomi_file_read gave its dirty editor buffer, which is not the disk`, rules: ["REV-34"] }
    : { why: `Lomi holds ${path} so; lomi_file_read gives a file's exact bytes`, rules: ["REV-30"] };
  expectBytes(`lomi_file_read's bytes of ${path}`, read.bytes, held, finding);
  expectSame(`lomi_file_read's diskRevision of ${path}`, read.diskRevision, sha256(held), finding);
});

When("{agent} lists the directory {string} in workspace {string}", async function (this: LomiWorld, agent: string, path: string, workspaceId: string) {
  await this.call(agent, "lomi_directory_list", { workspaceId, path });
});

Then("the file read shows the bytes {string}", function (this: LomiWorld, hex: string) {
  expectBytes("lomi_file_read's bytes", lastRead(this).bytes, bytesOfHex(hex), { why: "the exact bytes on disk" });
});

Then("the file read's diskRevision is the SHA-256 of those bytes", function (this: LomiWorld) {
  const read = lastRead(this);
  expectSame("diskRevision", read.diskRevision, sha256(read.bytes), { why: "the SHA-256 (hex) of the exact bytes read" });
});

Then("the file read has no text view", function (this: LomiWorld) {
  expectSame("text", lastRead(this).text, null, { why: "bytes that are not UTF-8 have no text view" });
});

Then("the file read's text view is the UTF-8 reading of those bytes", function (this: LomiWorld) {
  const read = lastRead(this);
  expectSame("text", read.text, new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(read.bytes), { why: "the UTF-8 reading of the bytes read" });
});

Then("the file read shows line endings {word}", function (this: LomiWorld, lineEndings: string) {
  expectSame("lineEndings", lastRead(this).lineEndings, lineEndings);
});

When(
  "{agent} writes back the bytes it read from {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, path: string, workspaceId: string, alias: string) {
    const { base64 } = this.fileObservations.read(path);
    await write(this, agent, workspaceId, path, alias, { base64 });
  },
);

When(
  "{agent} writes the bytes {string} to {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, hex: string, path: string, workspaceId: string, alias: string) {
    await write(this, agent, workspaceId, path, alias, { base64: bytesOfHex(hex).toString("base64") });
  },
);

When(
  "{agent} writes the text {string} to {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, text: string, path: string, workspaceId: string, alias: string) {
    await write(this, agent, workspaceId, path, alias, { text });
  },
);

Then("operation {string} reports the diskRevision the agent read from {string}", async function (this: LomiWorld, alias: string, path: string) {
  const { result } = await this.settledAs(alias, "lomi_file_write");
  expectSame("diskRevision", result?.diskRevision, this.fileObservations.read(path).diskRevision, {
    why: "the same bytes give the same revision",
    seen: { label: "result", value: result },
  });
});

/** The bytes Lomi holds on disk for a file of a project. */
async function bytesInLomi(world: LomiWorld, projectId: string, path: string): Promise<Buffer> {
  const entry = await entryInLomi(world, projectId, path);
  if (entry?.kind !== "file" || entry.base64 === null) throw violation(`Lomi holds no file ${path} in ${projectId}: ${boundedJson(entry)}`);
  return Buffer.from(entry.base64, "base64");
}

Then(
  "Lomi holds the file {string} of project {string} with the bytes {string}",
  async function (this: LomiWorld, path: string, projectId: string, hex: string) {
    expectBytes(`${path} in Lomi`, await bytesInLomi(this, projectId, path), bytesOfHex(hex));
  },
);

Then(
  "Lomi holds the file {string} of project {string} with the text {string}",
  async function (this: LomiWorld, path: string, projectId: string, text: string) {
    expectBytes(`${path} in Lomi`, await bytesInLomi(this, projectId, path), Buffer.from(text, "utf8"));
  },
);

Then(
  "Lomi holds the file {string} of project {string} ending with the text {string}",
  async function (this: LomiWorld, path: string, projectId: string, text: string) {
    const bytes = await bytesInLomi(this, projectId, path);
    const end = Buffer.from(text, "utf8");
    expectBytes(`the last ${end.length} bytes of ${path} in Lomi`, bytes.subarray(Math.max(0, bytes.length - end.length)), end, {
      seen: { label: "the whole file", value: bytes.toString("utf8") },
    });
  },
);

Then("Lomi still holds the bytes the agent read from {string} in project {string}", async function (this: LomiWorld, path: string, projectId: string) {
  const read = Buffer.from(this.fileObservations.read(path).base64, "base64");
  expectBytes(`${path} in Lomi`, await bytesInLomi(this, projectId, path), read, { why: "unchanged since the agent read it" });
});

Then("Lomi holds the directory {string} in project {string}", async function (this: LomiWorld, path: string, projectId: string) {
  expectSame(`the kind of ${path} in ${projectId}`, (await entryInLomi(this, projectId, path))?.kind, "directory");
});

Then("Lomi holds nothing at {string} in project {string}", async function (this: LomiWorld, path: string, projectId: string) {
  const entry = await entryInLomi(this, projectId, path);
  if (entry) throw violation(`Lomi still holds ${path} in ${projectId}: ${boundedJson(entry)}`);
});

When(
  "another program writes {string} to the file {string} of project {string}",
  async function (this: LomiWorld, text: string, path: string, projectId: string) {
    await this.control.otherProgramWrites(projectId, path, { text });
  },
);

Then("Lomi's domainRevision of workspace {string} is {string}", async function (this: LomiWorld, workspaceId: string, revision: string) {
  const ws = (await this.control.snapshot()).workspaces.find((w) => w.workspaceId === workspaceId);
  expectSame(`domainRevision of ${workspaceId}`, ws?.domainRevision, revision, { why: "file and directory operations do not move the layout counter" });
});

Given("the file {string} of project {string} cannot be written", async function (this: LomiWorld, path: string, projectId: string) {
  await this.control.protectFile(projectId, path);
});
