import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { scenarioCatalogue } from "../../harness/feature-catalogue.js";
import { citedRules, loadRules, RULE_TAG } from "../../harness/rules.js";

const rules = loadRules();
const known = new Set(rules.rules.map((r) => r.id));
const scenarios = scenarioCatalogue();
const source = readFileSync(fileURLToPath(new URL(`../../${rules.source}`, import.meta.url)), "utf8");

test("rule IDs are unique and belong to a declared family", () => {
  assert.equal(known.size, rules.rules.length, "duplicate rule IDs");
  for (const r of rules.rules) assert.ok(rules.families[r.id.split("-")[0]!], `${r.id}: undeclared family`);
});

test("every rule cites a sentence that stands verbatim in the source document", () => {
  const missing = rules.rules.filter((r) => !source.includes(r.source)).map((r) => r.id);
  assert.deepEqual(missing, []);
});

test("every rule has at least one scenario (the coverage gate)", () => {
  const covered = new Set(scenarios.flatMap((s) => citedRules(s.tags, known)));
  assert.deepEqual(rules.rules.map((r) => r.id).filter((id) => !covered.has(id)), []);
});

test("every scenario cites at least one rule, and only known ones", () => {
  for (const s of scenarios) {
    const ids = s.tags.filter((t) => RULE_TAG.test(t));
    assert.ok(ids.length > 0, `${s.uri}: "${s.name}" cites no rule`);
    assert.doesNotThrow(() => citedRules(s.tags, known), `${s.uri}: "${s.name}"`);
  }
});

test("an unknown rule tag is refused where it is cited", () => {
  assert.throws(() => citedRules(["@IDEM-01", "@IDEM-99"], known), /IDEM-99/);
});

test("the suite has a scenario for each of the spine's families", () => {
  const families = new Set(scenarios.flatMap((s) => citedRules(s.tags, known)).map((id) => id.split("-")[0]));
  for (const f of ["IDEM", "CANCEL", "DUR", "OP"]) assert.ok(families.has(f), f);
});

test("docs/spec.md is rendered from the current rules (run npm run spec)", async () => {
  const { renderSpec, SPEC_FILE } = await import("../../harness/spec-doc.js");
  assert.equal(readFileSync(SPEC_FILE, "utf8"), renderSpec());
});
