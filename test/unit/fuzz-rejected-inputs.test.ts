import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { CATALOGUE, publishedTool } from "../../protocol/catalogue.js";
import { inProcessBroker } from "../support/in-process-broker.js";
import { candidateInputs } from "../support/rejected-inputs.js";

// Same seed, same inputs: a failure prints its seed and path, and LOMI_FUZZ_SEED replays it.
const SEED = Number(process.env.LOMI_FUZZ_SEED ?? 20261203);
const PER_TOOL = 200;
const REPLY_LIMIT = 4096;

let broker: Awaited<ReturnType<typeof inProcessBroker>>;
const tally = { tried: 0, typed: 0 };
before(async () => {
  broker = await inProcessBroker(SEED);
});
after(async () => {
  await broker.close();
  process.stdout.write(`fuzz seed ${SEED}: ${tally.tried} schema-rejected inputs tried, ${tally.typed} answered INVALID_ARGUMENT\n`);
});

CATALOGUE.forEach((contract, index) => {
  test(`${contract.name}: ${PER_TOOL} inputs its schema rejects each get INVALID_ARGUMENT, dispatch nothing, and the broker keeps serving (seed ${SEED})`, async () => {
    const ledgerBefore = broker.sim.ledgerEntries().length;
    const rejected = candidateInputs(publishedTool(contract).inputSchema).filter((input) => !contract.input.safeParse(input).success);
    await fc.assert(
      fc.asyncProperty(rejected, async (input) => {
        tally.tried++;
        const reply = await broker.call(contract.name, input);
        const envelope = reply.structuredContent as { status: string; code?: string };
        assert.equal(reply.isError, true);
        assert.equal(envelope.status, "error");
        assert.equal(envelope.code, "INVALID_ARGUMENT");
        assert.ok(JSON.stringify(reply).length <= REPLY_LIMIT, `a reply of ${JSON.stringify(reply).length} characters`);
        tally.typed++;
      }),
      { seed: SEED + index, numRuns: PER_TOOL },
    );
    assert.equal(broker.sim.ledgerEntries().length, ledgerBefore, "a rejected input reached Lomi");
    assert.equal((await broker.call("lomi_workspace_list", {})).structuredContent.status, "ok");
  });
});
