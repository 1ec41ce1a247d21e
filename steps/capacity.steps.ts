import { Given, Then, When } from "@cucumber/cucumber";
import { requireCapability } from "../harness/adapters/broker-adapter.js";
import { configError, violation } from "../harness/harness-error.js";
import { expectSame } from "../harness/expected-found.js";
import { inFlight, REFUSED_TOGETHER } from "../harness/connection/in-flight.js";
import { PROGRESS_MEDIA_TYPE } from "../harness/report/attachments.js";
import { isSettled } from "../protocol/states.js";
import { realNow, type LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

/**
 * No fixed budget for a fill: no rule bounds a broker's speed, only each reply's (--timeout-ms, which
 * every call of the fill keeps, so the step always ends); a correct broker 300 ms a reply behind a
 * proxy took longer than any fixed budget would allow.
 */
const FILL_TIMEOUT_MS = -1;
/**
 * Calls in flight while filling the retry epochs: one at a time, the fill waits a whole round trip
 * per epoch (over stdio, most of a minute for 4,096); in flight, the broker works while the harness
 * checks replies.
 */
const FILL_IN_FLIGHT = 24;

/** A fill's progress, each eighth of the way: a slow broker's fill takes minutes, and the log says it is moving. */
function progressEvery(world: LomiWorld, total: number, what: string): () => void {
  const started = Date.now();
  const step = Math.max(1, Math.ceil(total / 8));
  let done = 0;
  return () => {
    done++;
    if (done % step === 0 && done < total)
      world.attach(`filled ${done} of ${total} ${what} (${Math.round((Date.now() - started) / 1000)} s)`, { mediaType: PROGRESS_MEDIA_TYPE });
  };
}

/** The progress log's note that a fill went on one call at a time: slower, and why. */
const inTurnNote = (world: LomiWorld) => () =>
  world.attach("the broker answered a JSON-RPC error to a call made while others were in flight: the fill goes on one call at a time, that call first", {
    mediaType: PROGRESS_MEDIA_TYPE,
  });

/** Filling the store, or counting what it holds, assumes it holds this scenario's records only. */
const requireOwnStore = (world: LomiWorld) => requireCapability(world.adapter, "own-store");

async function status(world: LomiWorld, agent: string) {
  requireOwnStore(world);
  return world.callOk(agent, "lomi_store_status", {});
}

/**
 * Terminals the receipt fill spreads its commands over, one command in flight on each: the broker
 * works while the harness checks replies, and no terminal's queue grows (thousands queued on one
 * terminal made the fill slower and left unfinished receipts, which a reconciliation keeps).
 */
const FILL_TERMINALS = 16;

/** Fills the store through the broker's own tools: terminals, then commands until the limit. */
Given("{agent} has filled the receipt store through the broker", { timeout: FILL_TIMEOUT_MS }, async function (this: LomiWorld, agent: string) {
  requireOwnStore(this);
  const workspaceId = "ws-alpha";
  const terminals: string[] = [];
  for (let t = 0; t < FILL_TERMINALS; t++) {
    const requestKey = `fill-terminal-${t}`;
    const created = this.okData(
      await this.send(requestKey, agent, "lomi_terminal_create", {
        workspaceId,
        cwdRelative: "",
        title: `Fill ${t}`,
        expectedRevision: this.revisions.get(workspaceId),
        retryEpoch: this.epochFor(agent, workspaceId).retryEpoch,
        requestKey,
      }),
    );
    const terminalSessionId = (await this.settledAs(requestKey, "lomi_terminal_create")).result?.terminalSessionId;
    if (typeof terminalSessionId !== "string") throw violation(`fill terminal ${t} has no session: ${boundedJson(created)}`);
    terminals.push(terminalSessionId);
  }
  const { retryEpoch } = this.epochFor(agent, workspaceId);
  const { receipts } = await status(this, agent);
  const report = progressEvery(this, receipts.limit - receipts.count, "receipts");
  // A lane per terminal; one at a time, the first terminal takes every command.
  const unsettled: string[] = [];
  await inFlight(
    receipts.limit - receipts.count,
    terminals.length,
    async (k, together, lane) => {
      const reply = await this.callAlongside(
        agent,
        "lomi_terminal_run",
        { workspaceId, terminalSessionId: terminals[lane]!, command: "true", retryEpoch, requestKey: `fill-${receipts.count + k}` },
        together,
      );
      if (reply === REFUSED_TOGETHER) return reply;
      const { operationId, state } = this.receiptOf(reply);
      if (!isSettled(state)) unsettled.push(operationId);
      report();
    },
    inTurnNote(this),
  );
  await untilSettled(this, agent, unsettled);
  const after = await status(this, agent);
  expectSame("receipts.count", after.receipts.count, after.receipts.limit, { why: "the fill leaves the store full" });
});

/**
 * Reads the fill's operations until every one has settled, as a client does (OP-01: a broker may
 * settle in its own time): the scenario's reconciliation then finds them all settled before the
 * clock jumps, past retention, and removes them all. Round after round, each read once; the run's
 * --timeout-ms bounds a round that settles none.
 */
async function untilSettled(world: LomiWorld, agent: string, operationIds: readonly string[]): Promise<void> {
  let left = operationIds;
  let pause = 5;
  let progressedAt = realNow();
  while (left.length > 0) {
    const still: string[] = [];
    await inFlight(
      left.length,
      FILL_TERMINALS,
      async (k, together) => {
        const reply = await world.callAlongside(agent, "lomi_operation_get", { operationId: left[k] }, together);
        if (reply === REFUSED_TOGETHER) return reply;
        const { operationId, state } = world.receiptOf(reply);
        if (!isSettled(state)) still.push(operationId);
      },
      inTurnNote(world),
    );
    if (still.length < left.length) progressedAt = realNow();
    else if (realNow() - progressedAt > world.run.timeoutMs)
      throw violation(`${still.length} of the fill's operations did not settle within ${world.run.timeoutMs} ms (e.g. ${still[0]})`);
    left = still;
    if (left.length > 0) await world.driver.pause(pause);
    pause = Math.min(pause * 2, 100);
  }
}

Given("{agent} has filled the retry epochs through the broker", { timeout: FILL_TIMEOUT_MS }, async function (this: LomiWorld, agent: string) {
  const { retryEpochs } = await status(this, agent);
  const report = progressEvery(this, retryEpochs.limit - retryEpochs.count, "retry epochs");
  await inFlight(
    retryEpochs.limit - retryEpochs.count,
    FILL_IN_FLIGHT,
    async (_, together) => {
      const reply = await this.callAlongside(agent, "lomi_connect", { workspaceId: "ws-alpha" }, together);
      if (reply === REFUSED_TOGETHER) return reply;
      this.okData(reply);
      report();
    },
    inTurnNote(this),
  );
  const after = await status(this, agent);
  expectSame("retryEpochs.count", after.retryEpochs.count, after.retryEpochs.limit, { why: "the fill leaves the epochs at their limit" });
});

Then("the store status shows {int} receipt(s) of {int}", async function (this: LomiWorld, count: number, limit: number) {
  const { receipts } = await status(this, "agent");
  expectSame("receipts", receipts, { count, limit });
});

Then("the store status shows {int} retry epoch(s), {int} of them expired", async function (this: LomiWorld, count: number, expired: number) {
  const { retryEpochs } = await status(this, "agent");
  expectSame("retryEpochs", { count: retryEpochs.count, expired: retryEpochs.expired }, { count, expired });
});

Then("the store status shows {int} outcome_unknown operation(s)", async function (this: LomiWorld, count: number) {
  expectSame("outcomeUnknown", (await status(this, "agent")).outcomeUnknown, count);
});

When("{agent} asks to reconcile the store", async function (this: LomiWorld, agent: string) {
  await this.call(agent, "lomi_store_reconcile", {});
});

When("{agent} asks to reconcile the store forgetting {string}", async function (this: LomiWorld, agent: string, alias: string) {
  await this.call(agent, "lomi_store_reconcile", { forgetOperationIds: [this.operationId(alias)] });
});

When(
  "{agent} asks to reconcile the store forgetting {string} and the unknown operation {string}",
  async function (this: LomiWorld, agent: string, alias: string, unknown: string) {
    await this.call(agent, "lomi_store_reconcile", { forgetOperationIds: [this.operationId(alias), unknown] });
  },
);

// What the user is asked must say what will be removed: the retention and every operation named (docs/decisions.md).
Then(
  "the store reconciliation the user is asked about names {int} hours and the operations {string} and {string}",
  async function (this: LomiWorld, hours: number, alias: string, unknown: string) {
    const pending = (await this.control.approvals()).filter((a) => a.subject === "store-reconcile" && a.state === "pending");
    expectSame("pending store reconciliations in Lomi", pending.length, 1);
    const { detail } = pending[0]!;
    const unnamed = [String(hours), this.operationId(alias), unknown].filter((word) => !detail.includes(word));
    if (unnamed.length > 0) throw violation(`the approval's detail does not name ${unnamed.join(", ")}: ${boundedJson(detail, 300)}`);
  },
);

Then("the reconciliation awaits the user", function (this: LomiWorld) {
  const data = this.dataOf("lomi_store_reconcile");
  expectSame("", { status: data.status, removed: data.removed }, { status: "awaiting_user", removed: null });
});

async function decidePending(world: LomiWorld, decision: "approve" | "deny") {
  const pending = (await world.control.approvals()).filter((a) => a.subject === "store-reconcile" && a.state === "pending");
  if (pending.length !== 1) throw configError(`expected one pending store reconciliation in Lomi, found ${pending.length}`);
  await world.control.decideApproval(pending[0]!.approvalId, decision);
}

When("the user approves the store reconciliation", async function (this: LomiWorld) {
  await decidePending(this, "approve");
});

When("the user declines the store reconciliation", async function (this: LomiWorld) {
  await decidePending(this, "deny");
});

Then("the reconciliation removed {int} receipt(s) and {int} retry epoch(s)", function (this: LomiWorld, receipts: number, retryEpochs: number) {
  requireOwnStore(this);
  const data = this.dataOf("lomi_store_reconcile");
  expectSame(
    "",
    { status: data.status, removed: { receipts: data.removed?.receipts, retryEpochs: data.removed?.retryEpochs } },
    { status: "completed", removed: { receipts, retryEpochs } },
  );
});

Then(
  "the reconciliation removed {int} receipt(s), {int} retry epoch(s) and {int} event(s), and kept {int} receipt(s), {int} unfinished and {int} outcome_unknown",
  function (this: LomiWorld, receipts: number, retryEpochs: number, events: number, keptReceipts: number, unfinished: number, outcomeUnknown: number) {
    requireOwnStore(this);
    const data = this.dataOf("lomi_store_reconcile");
    expectSame(
      "",
      { status: data.status, removed: data.removed, kept: data.kept },
      { status: "completed", removed: { receipts, retryEpochs, events }, kept: { receipts: keptReceipts, unfinished, outcomeUnknown } },
    );
  },
);

Then(
  "the retry epoch of {agent} for workspace {string} expires 24 hours after Lomi's clock",
  async function (this: LomiWorld, agent: string, workspaceId: string) {
    const connect = this.agent(agent).connects.get(workspaceId);
    if (!connect) throw configError(`${agent} has not connected to ${workspaceId}`);
    const { now } = await this.control.snapshot();
    expectSame("hours from Lomi's clock to retryEpochExpiresAt", (Date.parse(connect.retryEpochExpiresAt) - now) / 3_600_000, 24, {
      seen: { label: "retryEpochExpiresAt", value: connect.retryEpochExpiresAt },
    });
  },
);

When(
  "{agent} creates a terminal {string} in workspace {string} as {string} under the retry epoch of {agent}",
  async function (this: LomiWorld, agent: string, title: string, workspaceId: string, alias: string, owner: string) {
    await this.send(alias, agent, "lomi_terminal_create", {
      workspaceId,
      cwdRelative: "",
      title,
      expectedRevision: this.revisions.get(workspaceId),
      retryEpoch: this.epochFor(owner, workspaceId).retryEpoch,
      requestKey: `create-${alias}`,
    });
  },
);
