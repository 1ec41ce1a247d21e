import assert from "node:assert/strict";
import { test } from "node:test";
import { killSchedule, runSoak } from "../../bench/kill-soak.js";

const SEED = Number(process.env.LOMI_SOAK_SEED ?? 424242);

test("the kill schedule is the seed's: the same seed kills at the same moments, another seed elsewhere", () => {
  assert.deepEqual(killSchedule(SEED, 30, 2), killSchedule(SEED, 30, 2));
  assert.notDeepEqual(killSchedule(SEED, 30, 2), killSchedule(SEED + 1, 30, 2));
});

test(`kill -9 soak: 30 SIGKILLs of a broker process under 2 retrying agents lose nothing and double nothing (seed ${SEED})`, async () => {
  const log: string[] = [];
  const figures = await runSoak({ seed: SEED, kills: 30, clients: 2, log: (line) => log.push(line) });
  process.stdout.write(`${JSON.stringify({ ...figures, problems: figures.problems.length })}\n`);
  assert.equal(figures.kills, 30);
  assert.ok(figures.operations > 0 && figures.ledgerDispatches > 0, "the agents got work done between kills");
  assert.ok(figures.operations >= figures.kills, "every instance got new work done before its kill");
  assert.ok(figures.lostReplies > 0, "some replies were lost to kills and retried");
  assert.deepEqual(figures.problems, [], log.join("\n"));
  assert.deepEqual(
    {
      doubleEffects: figures.doubleEffects,
      lostReceipts: figures.lostReceipts,
      unreadableOperationIds: figures.unreadableOperationIds,
      illegalTransitions: figures.illegalTransitions,
    },
    { doubleEffects: 0, lostReceipts: 0, unreadableOperationIds: 0, illegalTransitions: 0 },
  );
});
