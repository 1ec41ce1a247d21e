import assert from "node:assert/strict";
import { test } from "node:test";
import { scenarioCatalogue } from "../../harness/run/feature-catalogue.js";
import { HarnessError } from "../../harness/harness-error.js";
import { citedRules, loadRules } from "../../harness/rules.js";

// Unique IDs, verbatim sources, coverage, known tags and a fresh docs/spec.md are lint's (test/unit/lint.test.ts: "the kit's own suite lints clean").
const known = new Set(loadRules().rules.map((r) => r.id));

test("an unknown rule tag met during a run is a configuration error naming it, not a crash", () => {
  assert.throws(
    () => citedRules(["@IDEM-01", "@IDEM-99"], known),
    (e: unknown) => e instanceof HarnessError && e.kind === "config" && /IDEM-99/.test(e.message),
  );
});

test("the suite has a scenario for each of the spine's families", () => {
  const families = new Set(
    scenarioCatalogue()
      .flatMap((s) => citedRules(s.tags, known))
      .map((id) => id.split("-")[0]),
  );
  for (const f of ["IDEM", "CANCEL", "DUR", "OP"]) assert.ok(families.has(f), f);
});
