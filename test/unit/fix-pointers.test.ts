import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { FIX_POINTERS, pointersOf } from "../../harness/report/fix-pointers.js";
import { loadRules } from "../../harness/rules.js";
import { kitPath } from "../../protocol/kit-root.js";

const ROOT = kitPath();
const words = (text: string) => text.replace(/\s+/g, " ");

/** The text under a heading, up to the next heading of its level or above; undefined when the doc has no such heading. */
function section(doc: string, heading: string): string | undefined {
  const lines = doc.split("\n");
  const at = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, "").trim() === heading);
  if (at < 0) return undefined;
  const level = /^#+/.exec(lines[at]!)![0].length;
  const end = lines.findIndex((l, i) => i > at && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(at + 1, end < 0 ? undefined : end).join("\n");
}

test("each pointer names a rule of docs/rules.json and a heading its doc has, whose section says what it quotes", () => {
  const rules = new Set(loadRules().rules.map((r) => r.id));
  for (const p of FIX_POINTERS) {
    assert.ok(rules.has(p.rule), `${p.rule} is not a rule`);
    const text = section(readFileSync(path.join(ROOT, p.doc), "utf8"), p.heading);
    assert.ok(text !== undefined, `${p.doc} has no heading "${p.heading}" (${p.rule})`);
    assert.ok(words(text).includes(words(p.says)), `${p.doc}, "${p.heading}" does not say "${p.says}" (${p.rule})`);
  }
  assert.equal(new Set(FIX_POINTERS.map((p) => p.rule)).size, FIX_POINTERS.length, "a rule has one pointer");
});

test("a heading that is not in the doc, or a sentence not under it, is caught", () => {
  const doc = "# A\n\n## B\n\nServing the catalogue passes.\n\n## C\n\nOther words.\n";
  assert.equal(section(doc, "D"), undefined);
  assert.ok(words(section(doc, "B")!).includes("Serving the catalogue passes."));
  assert.ok(!section(doc, "C")!.includes("Serving"), "a section ends at the next heading");
  assert.deepEqual(
    pointersOf(["OP-01", "ENV-04"]).map((p) => p.rule),
    ["ENV-04"],
  );
});
