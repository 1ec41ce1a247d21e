import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InProcessAdapter } from "../../harness/adapters/in-process.js";
import { explore } from "../../harness/explore/explore.js";
import { readRegressions } from "../../harness/explore/reports.js";
import { MUTANTS } from "../../mutants/index.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { kitPath } from "../../protocol/kit-root.js";

const SEEDS = kitPath("fixtures/explore-seeds.json");
const cases = readRegressions(SEEDS);

/** Every case explore once found is replayed: its mutant is still caught the same way, the reference broker passes it. */
describe("explore's regression list (fixtures/explore-seeds.json)", () => {
  it("holds cases", () => assert.ok(cases.length > 0));
  for (const c of cases) {
    it(`seed ${c.seed} ${c.path}${c.mutant ? ` (${c.mutant})` : ""}: ${c.invariants.join(", ")}`, async () => {
      const replay = {
        seed: c.seed,
        runs: 1,
        steps: c.steps,
        timeBudgetS: 600,
        run: { adapter: "in-process" as const, seed: 1, timeoutMs: 10_000 },
        world: readWorldFile(),
        replay: { path: c.path, replayPath: c.replayPath },
      };
      const mutant = c.mutant === undefined ? undefined : MUTANTS.find((m) => m.name === c.mutant);
      if (c.mutant !== undefined) assert.ok(mutant, `no mutant ${c.mutant}`);
      if (mutant) {
        const found = await explore({ ...replay, adapter: () => new InProcessAdapter(10_000, mutant.parts) });
        assert.deepEqual(
          found.violation?.invariants.map((f) => f.id),
          c.invariants,
          "the case still shows the same violation",
        );
      }
      const reference = await explore(replay);
      assert.equal(reference.violation, undefined, `the reference broker: ${JSON.stringify(reference.violation?.invariants)}`);
    });
  }
});
