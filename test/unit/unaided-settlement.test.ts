import assert from "node:assert/strict";
import { after, test } from "node:test";
import { InProcessAdapter } from "../../harness/adapters/in-process.js";
import { Driver } from "../../harness/driver/driver.js";
import { unsettledOperation } from "../../harness/driver/sweep.js";
import { cannotSettleUnaided } from "../../harness/driver/unaided.js";
import { runParametersSchema } from "../../harness/run/run-parameters.js";
import { isSettled } from "../../protocol/states.js";
import { stopRouting } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";

after(stopRouting);

/** Far longer than any of these tests may take: a wait that ran out would answer "did not settle within". */
const LONG_MS = 120_000;

type Data = Record<string, string> & { operation: { operationId: string; state: string } };

/** A driver on the reference broker in this process (or a variant's policy), its agent connected to ws-alpha with a terminal. */
async function started(policy?: { settleAfterMs: [number, number] }) {
  const driver = await Driver.start({
    run: runParametersSchema.parse({ timeoutMs: LONG_MS }),
    world: { ...readWorldFile(), autoApprovePairings: true },
    seed: 3,
    source: "unaided-settlement test",
    adapter: new InProcessAdapter(LONG_MS, policy ? { policy } : undefined),
  });
  const data = async (tool: string, args: Record<string, unknown>) => {
    const answer = await driver.call("agent", tool, args);
    assert.ok("reply" in answer, `${tool} answered`);
    return (answer.reply.structuredContent as { data: Data }).data;
  };
  const connected = await data("lomi_connect", { workspaceId: "ws-alpha" });
  const common = { workspaceId: "ws-alpha", retryEpoch: connected.retryEpoch };
  const created = await data("lomi_terminal_create", { ...common, cwdRelative: "", title: "T", expectedRevision: connected.domainRevision, requestKey: "t" });
  assert.equal(await unsettledOperation(driver, ["agent"], LONG_MS), undefined, "the terminal is created");
  const terminal = (await data("lomi_operation_get", { operationId: created.operation.operationId })) as unknown as {
    operation: { result: { terminalSessionId: string } };
  };
  const run = (key: string, command: string) =>
    data("lomi_terminal_run", { ...common, terminalSessionId: terminal.operation.result.terminalSessionId, command, requestKey: key });
  return { driver, data, run };
}

test("an operation whose dispatch Lomi holds, and one queued behind it on its terminal, cannot settle unless the scenario acts", async () => {
  const { driver, data, run } = await started();
  try {
    await driver.control.armFault("hold", "lomi_terminal_run");
    const held = (await run("held", "ls")).operation;
    const behind = (await run("behind", "pwd")).operation;
    assert.equal(behind.state, "queued", "one operation at a time on a terminal");
    assert.match((await cannotSettleUnaided(driver, held.operationId)) ?? "", /Lomi has not finished its dispatch/);
    assert.match((await cannotSettleUnaided(driver, behind.operationId)) ?? "", new RegExp(`queued behind ${held.operationId} on terminalSessionId:`));
    // The reads before a one-connection broker's restart stop at once on it, instead of waiting out --timeout-ms.
    const waited = await unsettledOperation(driver, ["agent"], LONG_MS);
    assert.equal(waited?.operationId, held.operationId);
    assert.match(waited?.why ?? "", /Lomi has not finished its dispatch/);

    // Released, both settle by themselves: nothing is stuck any more.
    await driver.control.release(held.operationId, "complete");
    assert.equal(await cannotSettleUnaided(driver, held.operationId), undefined);
    assert.equal(await unsettledOperation(driver, ["agent"], LONG_MS), undefined);
    assert.ok(isSettled((await data("lomi_operation_get", { operationId: behind.operationId })).operation.state));
  } finally {
    await driver.stop();
  }
});

test("a command waiting for Lomi's clock cannot settle by itself; once the clock moves it does", async () => {
  const { driver, run } = await started();
  try {
    const tests = (await run("tests", "npm test")).operation;
    assert.match((await cannotSettleUnaided(driver, tests.operationId)) ?? "", /Lomi has not finished its dispatch/);
    await driver.control.advanceClock(2_000);
    assert.equal(await cannotSettleUnaided(driver, tests.operationId), undefined, "Lomi settled it: the broker may learn it in its own time");
    assert.equal(await unsettledOperation(driver, ["agent"], LONG_MS), undefined);
  } finally {
    await driver.stop();
  }
});

test("an operation Lomi has settled but the broker records later is waited for until it settles", async () => {
  // A legal variant: the broker records what Lomi settled 50 to 80 ms later, in its own time.
  const { driver, run } = await started({ settleAfterMs: [50, 80] });
  try {
    const listed = (await run("listed", "ls")).operation;
    assert.notEqual(listed.state, "succeeded", "the variant has not recorded the settlement yet");
    assert.equal(await cannotSettleUnaided(driver, listed.operationId), undefined);
    assert.equal(await unsettledOperation(driver, ["agent"], LONG_MS), undefined, "read until it settled");
  } finally {
    await driver.stop();
  }
});
