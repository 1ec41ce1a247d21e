import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { LomiError } from "../../protocol/errors.js";
import { decodeForEditor, encodeBuffer } from "../../simulator/files/editor-document.js";
import { FileTree, projectPath } from "../../simulator/files/file-tree.js";
import { applyEdits } from "../../simulator/files/text-edits.js";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const code = (e: unknown) => (e instanceof LomiError ? e.code : String(e));

test("any bytes are kept exactly and their diskRevision is their SHA-256", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const tree = new FileTree();
      tree.writeFile("f.bin", Buffer.from(bytes), "path");
      assert.deepEqual(new Uint8Array(tree.file("f.bin", "path").bytes), bytes);
      assert.equal(tree.diskRevision("f.bin"), sha256(bytes));
    }),
  );
});

test("an editor document saves back the exact bytes it opened, whatever their encoding", () => {
  const bom = fc.constant(Uint8Array.of(0xef, 0xbb, 0xbf));
  const crlfText = fc.string().map((s) => new Uint8Array(Buffer.from(s.replace(/\n/g, "\r\n"), "utf8")));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        crlfText,
        fc.tuple(bom, crlfText).map(([a, b]) => Uint8Array.from([...a, ...b])),
      ),
      (bytes) => {
        assert.deepEqual(new Uint8Array(encodeBuffer(decodeForEditor(Buffer.from(bytes)))), bytes);
      },
    ),
  );
});

test("a directory revision moves with any change below it, and only there", () => {
  const tree = new FileTree();
  tree.makeDirectory("a/b", true);
  tree.makeDirectory("c", true);
  tree.writeFile("a/b/x.txt", Buffer.from("1"), "path");
  const before = { root: tree.directoryRevision(""), a: tree.directoryRevision("a"), c: tree.directoryRevision("c"), entryC: tree.entryRevision("c") };
  tree.writeFile("a/b/x.txt", Buffer.from("2"), "path");
  assert.notEqual(tree.directoryRevision(""), before.root);
  assert.notEqual(tree.directoryRevision("a"), before.a);
  assert.equal(tree.directoryRevision("c"), before.c);
  assert.equal(tree.entryRevision("c"), before.entryC);
});

test("two empty directories, or a file and a directory, never share a revision", () => {
  const tree = new FileTree();
  tree.makeDirectory("one", false);
  tree.makeDirectory("two", false);
  assert.notEqual(tree.directoryRevision("one"), tree.directoryRevision("two"));
  assert.notEqual(tree.entryRevision("one"), tree.entryRevision("two"));
});

test("a move takes everything below with it", () => {
  const tree = new FileTree();
  tree.makeDirectory("src/lib", true);
  tree.writeFile("src/lib/u.ts", Buffer.from("u"), "path");
  tree.move("src/lib", "src/shared");
  assert.deepEqual(
    tree.entries().map(([p]) => p),
    ["", "src", "src/shared", "src/shared/u.ts"],
  );
});

test("paths are normalized inside the project and refused outside it", () => {
  assert.equal(projectPath("./src/../lib/", "path"), "lib");
  assert.equal(projectPath(".", "path"), "");
  for (const bad of ["..", "../x", "/etc", "a/../../b"])
    assert.throws(
      () => projectPath(bad, "path"),
      (e: unknown) => code(e) === "OUTSIDE_PROJECT",
      bad,
    );
});

test("edits apply against the buffer they were decided on, in any order", () => {
  const doc = { text: "hello world", encoding: "utf-8" as const };
  assert.equal(
    applyEdits(doc, [
      { start: 6, end: 11, text: "there" },
      { start: 0, end: 5, text: "hi" },
    ]),
    "hi there",
  );
  assert.throws(
    () => applyEdits(doc, [{ start: 0, end: 12, text: "" }]),
    (e: unknown) => code(e) === "OUT_OF_RANGE",
  );
  assert.throws(
    () => applyEdits({ text: "caf\u00e9", encoding: "latin1" }, [{ start: 0, end: 0, text: "\u20ac" }]),
    (e: unknown) => code(e) === "OUT_OF_RANGE",
  );
});
