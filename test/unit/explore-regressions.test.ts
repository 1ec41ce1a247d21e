import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { InProcessAdapter } from "../../harness/adapters/in-process.js";
import { explore, type ExploreOptions } from "../../harness/explore/explore.js";
import { addRegression, readRegressions, regressionOf, type RegressionEntry } from "../../harness/explore/reports.js";
import { formatHistory } from "../../harness/history/format.js";
import { MUTANTS } from "../../mutants/index.js";
import { ALL_VARIANTS } from "../../variants/index.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { kitPath } from "../../protocol/kit-root.js";

const SEEDS = kitPath("fixtures/explore-seeds.json");
const cases = readRegressions(SEEDS);

/** A case replayed exactly, on the variant it names (a mutant's adapter is given apart), else on the reference broker. */
const replayOf = (c: RegressionEntry, on: "its broker" | "reference" = "its broker"): ExploreOptions => ({
  seed: c.seed,
  runs: 1,
  steps: c.steps,
  timeBudgetS: 600,
  run: { adapter: "in-process", ...(on === "its broker" && c.variant !== undefined ? { variant: c.variant } : {}), seed: 1, timeoutMs: 10_000 },
  world: readWorldFile(),
  replay: { path: c.path, replayPath: c.replayPath },
});

/**
 * Every case explore once found is replayed: its mutant is still caught the same way; a legal variant
 * it was found on, and the reference broker, pass it (the defect it showed stays fixed).
 */
describe("explore's regression list (fixtures/explore-seeds.json)", () => {
  it("holds cases", () => assert.ok(cases.length > 0));
  for (const c of cases) {
    const on = c.mutant ? ` (${c.mutant})` : c.variant ? ` (variant ${c.variant})` : "";
    it(`seed ${c.seed} ${c.path}${on}: ${c.invariants.join(", ")}`, async () => {
      const mutant = c.mutant === undefined ? undefined : MUTANTS.find((m) => m.name === c.mutant);
      if (c.mutant !== undefined) assert.ok(mutant, `no mutant ${c.mutant}`);
      if (mutant) {
        const found = await explore({ ...replayOf(c), adapter: () => new InProcessAdapter(10_000, mutant.parts) });
        assert.deepEqual(
          found.violation?.invariants.map((f) => f.id),
          c.invariants,
          "the case still shows the same violation",
        );
      }
      if (c.variant !== undefined) {
        assert.ok(
          ALL_VARIANTS.some((v) => v.name === c.variant),
          `no variant ${c.variant}`,
        );
        const variant = await explore(replayOf(c));
        assert.equal(variant.violation, undefined, `the variant ${c.variant}: ${JSON.stringify(variant.violation?.invariants)}`);
      }
      const reference = await explore(replayOf(c, "reference"));
      assert.equal(reference.violation, undefined, `the reference broker: ${JSON.stringify(reference.violation?.invariants)}`);
    });
  }
});

describe("a case found on a variant (explore --variant X --regressions FILE)", () => {
  it("names its variant in the list and replays on it, not on the reference broker alone", async () => {
    const template = cases.find((c) => c.mutant !== undefined)!;
    const variant = "long-uppercase-ids";
    const entry = regressionOf(
      { adapter: "in-process", variant, seed: template.seed, timeoutMs: 10_000 },
      { seed: template.seed, steps: template.steps, path: template.path, replayPath: template.replayPath, invariants: ["events-in-order"] },
    );
    assert.equal(entry.variant, variant);
    assert.equal(entry.mutant, undefined);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-explore-regressions-")), "cases.json");
    addRegression(file, entry);
    const [read] = readRegressions(file);
    assert.deepEqual(read, entry);
    // Its variant's IDs (26 uppercase characters) show in the history: the replay ran on the variant.
    const histories = async (o: ExploreOptions) => {
      let text = "";
      const result = await explore({ ...o, onHistory: (records) => (text = formatHistory(records)) });
      assert.equal(result.violation, undefined, JSON.stringify(result.violation?.invariants));
      return text;
    };
    const onVariant = await histories(replayOf(read!));
    const onReference = await histories(replayOf(read!, "reference"));
    assert.match(onVariant, /"operationId":"op-[A-Z0-9_-]{26}"/);
    assert.doesNotMatch(onReference, /"operationId":"op-[A-Z0-9_-]{26}"/);
  });

  it("a case naming both a mutant and a variant is refused: a case names one broker", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-explore-regressions-")), "cases.json");
    writeFileSync(file, JSON.stringify([{ ...cases[0]!, mutant: "env-errors-without-iserror", variant: "long-uppercase-ids" }]));
    assert.throws(() => readRegressions(file), /is not a list of explore cases \(a case names one broker: a mutant or a variant, not both\)/);
  });
});
