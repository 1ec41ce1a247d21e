import { Then, When } from "@cucumber/cucumber";
import { configError, violation } from "../harness/harness-error.js";
import { differences, expectSame, shown } from "../harness/expected-found.js";
import { canReach, OPERATION_STATES, type OperationState } from "../protocol/states.js";
import { isOneOf } from "../protocol/closed-lists.js";
import { expectedCodeRules, rulesNamingCode } from "../harness/oracles/finding-rules.js";
import { fillText } from "./placeholders.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

function createArgs(world: LomiWorld, agent: string, title: string, workspaceId: string, alias: string): Record<string, unknown> {
  const expectedRevision = world.revisions.get(workspaceId);
  if (!expectedRevision) throw configError(`no domainRevision observed for ${workspaceId}; connect or list panels first`);
  return {
    workspaceId,
    cwdRelative: "",
    title,
    expectedRevision,
    retryEpoch: world.epochFor(agent, workspaceId).retryEpoch,
    requestKey: `create-${alias}`,
  };
}

When(
  "{agent} creates a terminal {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, title: string, workspaceId: string, alias: string) {
    await this.send(alias, agent, "lomi_terminal_create", createArgs(this, agent, title, workspaceId, alias));
  },
);

When(
  "{agent} creates a terminal {string} in workspace {string} as {string} with {word} set to {string}",
  async function (this: LomiWorld, agent: string, title: string, workspaceId: string, alias: string, field: string, value: string) {
    await this.send(alias, agent, "lomi_terminal_create", { ...createArgs(this, agent, title, workspaceId, alias), [field]: value });
  },
);

When(
  "{agent} creates a terminal {string} in workspace {string} as {string} twice at once",
  async function (this: LomiWorld, agent: string, title: string, workspaceId: string, alias: string) {
    const args = createArgs(this, agent, title, workspaceId, alias);
    const [a, b] = await Promise.all([this.send(alias, agent, "lomi_terminal_create", args), this.send(`${alias}#2`, agent, "lomi_terminal_create", args)]);
    this.okData(a);
    this.okData(b);
  },
);

async function runArgs(world: LomiWorld, agent: string, command: string, terminal: string, alias: string) {
  const created = await world.settledAs(terminal, "lomi_terminal_create");
  const terminalSessionId = created.result?.terminalSessionId;
  if (typeof terminalSessionId !== "string") throw violation(`operation "${terminal}" has no terminalSessionId in its result: ${boundedJson(created)}`);
  const workspaceId = String(world.request(terminal).args.workspaceId);
  return { workspaceId, terminalSessionId, command, retryEpoch: world.epochFor(agent, workspaceId).retryEpoch, requestKey: `run-${alias}` };
}

When(
  "{agent} runs {string} in the terminal of {string} as {string}",
  async function (this: LomiWorld, agent: string, command: string, terminal: string, alias: string) {
    await this.send(alias, agent, "lomi_terminal_run", await runArgs(this, agent, command, terminal, alias));
  },
);

When(
  "{agent} runs {string} in the terminal of {string} as {string} reusing the request key of {string}",
  async function (this: LomiWorld, agent: string, command: string, terminal: string, alias: string, other: string) {
    const args = { ...(await runArgs(this, agent, command, terminal, alias)), requestKey: this.request(other).args.requestKey };
    await this.send(alias, agent, "lomi_terminal_run", args);
  },
);

When("the reply to {string} is lost", function (this: LomiWorld, alias: string) {
  this.request(alias).operationId = undefined;
  this.lastReply = undefined;
});

/** The agent resends the entire original request, exactly. */
When("{agent} retries {string}", async function (this: LomiWorld, agent: string, alias: string) {
  const r = this.request(alias);
  const reply = await this.call(agent, r.tool, r.args);
  this.retried = reply;
  if (reply.envelope.status === "ok") r.operationId ??= this.receiptOf(reply).operationId;
});

When("{agent} retries {string} with {word} changed to {string}", async function (this: LomiWorld, agent: string, alias: string, field: string, value: string) {
  const r = this.request(alias);
  await this.call(agent, r.tool, { ...r.args, [field]: await fillText(this, agent, value) });
});

When(
  "{agent} retries {string} with {word} changed to the terminal session of {string}",
  async function (this: LomiWorld, agent: string, alias: string, field: string, terminal: string) {
    const r = this.request(alias);
    const session = (await this.settledAs(terminal, "lomi_terminal_create")).result?.terminalSessionId;
    await this.call(agent, r.tool, { ...r.args, [field]: session });
  },
);

When("{agent} retries {string} under a fresh retry epoch", async function (this: LomiWorld, agent: string, alias: string) {
  const r = this.request(alias);
  await this.call(agent, r.tool, { ...r.args, retryEpoch: this.epochFor(agent, String(r.args.workspaceId)).retryEpoch });
});

/** A lookup teaches an agent that lost the reply its operationId. */
When("{agent} looks up {string} by its retry identity", async function (this: LomiWorld, agent: string, alias: string) {
  const request = this.request(alias);
  const { tool, args } = request;
  const reply = await this.call(agent, "lomi_operation_lookup", {
    retryEpoch: args.retryEpoch,
    requestKey: args.requestKey,
    tool,
    ...(args.projectId === undefined ? {} : { projectId: args.projectId }),
  });
  if (reply.envelope.status === "ok") request.operationId ??= this.receiptOf(reply).operationId;
});

When(
  "{agent} looks up {string} by its retry identity with projectId {string}",
  async function (this: LomiWorld, agent: string, alias: string, projectId: string) {
    const { tool, args } = this.request(alias);
    await this.call(agent, "lomi_operation_lookup", { retryEpoch: args.retryEpoch, requestKey: args.requestKey, tool, projectId });
  },
);

When("{agent} reads operation {string}", async function (this: LomiWorld, agent: string, alias: string) {
  await this.call(agent, "lomi_operation_get", { operationId: this.operationId(alias) });
});

When("{agent} cancels {string}", async function (this: LomiWorld, agent: string, alias: string) {
  await this.call(agent, "lomi_operation_cancel", { operationId: this.operationId(alias) });
});

Then("the reply returns the prior operation {string}", function (this: LomiWorld, alias: string) {
  const receipt = this.receiptOf();
  // The same identity and arguments return the prior operation: IDEM-01's, whichever rule the scenario cites.
  if (receipt.operationId !== this.operationId(alias))
    throw violation(`a duplicate must return the prior operation ${this.operationId(alias)}; the reply names ${receipt.operationId}`, ["IDEM-01"]);
  if (receipt.duplicate === false) throw violation("the reply names the prior operation but says duplicate: false", ["IDEM-01"]);
});

Then("the reply names operation {string}", function (this: LomiWorld, alias: string) {
  expectSame("operationId", this.receiptOf().operationId, this.operationId(alias), { why: `the operation "${alias}"` });
});

Then("both replies to {string} name the same operation", function (this: LomiWorld, alias: string) {
  if (this.operationId(alias) !== this.operationId(`${alias}#2`))
    throw violation(`identical concurrent requests must make one operation; they made ${this.operationId(alias)} and ${this.operationId(`${alias}#2`)}`, [
      "IDEM-07",
    ]);
});

Then("the reply admits a new operation", function (this: LomiWorld) {
  const receipt = this.receiptOf();
  if (receipt.duplicate !== false) throw violation(`expected a new operation, got duplicate: ${String(receipt.duplicate)} for ${receipt.operationId}`);
  const sharing = [...this.requests.entries()].filter(([, r]) => r.operationId === receipt.operationId).map(([alias]) => alias);
  if (sharing.length > 1) throw violation(`operation ${receipt.operationId} is answered for several requests: ${sharing.join(", ")}`);
});

/**
 * The operation a reply carries shows the state, or one on the legal way to it (OP-01: a reply
 * acknowledges what the broker knew then); the operation must then be read reaching it.
 */
async function replyReaching(world: LomiWorld, state: OperationState): Promise<{ operationId: string; state: string; effectState: string }> {
  const receipt = world.receiptOf();
  if (receipt.state === state) return receipt;
  // A reply that shows a state the one wanted cannot follow: the receipt's own rule, as Lomi's ledger tells it (a settlement before Lomi's is OP-01's).
  if (!canReach(receipt.state, state))
    throw violation(`the reply shows ${receipt.state}, which cannot lead to ${state}: ${boundedJson(receipt)}`, await world.stateRules(receipt, state));
  const alias = [...world.requests.entries()].find(([, r]) => r.operationId === receipt.operationId)?.[0];
  if (!alias) throw configError("the reply names an operation the scenario did not send under a name");
  return world.reading(alias, state);
}

/**
 * A receipt read as the step expects, or one expected/found naming the rule the receipt's state
 * contradicts where it is the receipt's own (world.stateRules).
 */
async function expectReceipt(
  world: LomiWorld,
  what: string,
  receipt: { operationId?: string; state: string; effectState: string },
  state: OperationState,
  effect?: string,
): Promise<void> {
  const found = effect === undefined ? { state: receipt.state } : { state: receipt.state, effectState: receipt.effectState };
  const expected = effect === undefined ? { state } : { state, effectState: effect };
  if (differences(found, expected).length === 0) return;
  expectSame("", found, expected, { why: what, seen: { label: "the receipt", value: receipt }, rules: await world.stateRules(receipt, state) });
}

Then("the reply shows state {state}", async function (this: LomiWorld, state: OperationState) {
  await expectReceipt(this, "the operation the reply names", await replyReaching(this, state), state);
});

Then("operation {string} reads {state}", async function (this: LomiWorld, alias: string, state: OperationState) {
  await expectReceipt(this, `operation "${alias}"`, await this.reading(alias, state), state);
});

Then("operation {string} reads {state} with effectState {effect}", async function (this: LomiWorld, alias: string, state: OperationState, effect: string) {
  await expectReceipt(this, `operation "${alias}"`, await this.reading(alias, state), state, effect);
});

Then("the read was not an MCP error", function (this: LomiWorld) {
  expectSame("isError", this.lastReply?.raw.isError, false, { why: "a settled failure is a successful read" });
});

Then("operation {string} carries a terminal session and a lease", async function (this: LomiWorld, alias: string) {
  const { result } = await this.settledAs(alias, "lomi_terminal_create");
  if (typeof result?.terminalSessionId !== "string" || typeof result?.leaseId !== "string") {
    throw violation(`the confirmed result must carry terminalSessionId and leaseId: ${boundedJson(result)}`);
  }
});

Then("operation {string} carries the error {code}", async function (this: LomiWorld, alias: string, code: string) {
  const receipt = await this.settled(alias);
  if (receipt.error?.code === code) return;
  const { tool, args } = this.request(alias);
  expectSame("error.code", receipt.error?.code, code, {
    why: `operation "${alias}"`,
    seen: { label: "the receipt", value: receipt },
    rules: expectedCodeRules(
      [code],
      tool,
      args,
      this.rules.map((r) => r.id),
    ),
  });
});

Then("operation {string} reports exit code {int}", async function (this: LomiWorld, alias: string, exitCode: number) {
  const receipt = await this.settledAs(alias, "lomi_terminal_run");
  expectSame("result.exitCode", receipt.result?.exitCode, exitCode, { why: `operation "${alias}"`, seen: { label: "the receipt", value: receipt } });
});

/**
 * The scenario's rules whose sentence names a cancel outcome as the answer. Only already_settled can
 * be told apart in a sentence: cancelled and cancelling are states too, named by many rules.
 */
const outcomeRules = (world: LomiWorld, outcome: string) =>
  isOneOf(OPERATION_STATES, outcome) ? [] : rulesNamingCode(outcome).filter((id) => world.rules.some((r) => r.id === id));

Then("the cancel outcome is {outcome}", function (this: LomiWorld, outcome: string) {
  expectSame("outcome", this.dataOf("lomi_operation_cancel").outcome, outcome, { rules: outcomeRules(this, outcome) });
});

/** Where the broker may not have recorded yet what Lomi did (a cancellation Lomi honoured), either outcome is true. */
Then("the cancel outcome is {outcome} or {outcome}", function (this: LomiWorld, one: string, other: string) {
  const { outcome } = this.dataOf("lomi_operation_cancel");
  if (outcome !== one && outcome !== other) throw violation(`outcome: ${shown(outcome)}, expected ${shown(one)} or ${shown(other)}`);
});

Then("the reply's operation reads {state} with effectState {effect}", async function (this: LomiWorld, state: OperationState, effect: string) {
  await expectReceipt(this, "the reply's operation", await replyReaching(this, state), state, effect);
});

/** The error envelope with the asked-for identifiers blanked, so two refusals can be compared. */
function refusal(world: LomiWorld, ids: string[]): unknown {
  const envelope = world.lastReply?.envelope;
  if (envelope?.status !== "error") throw violation(`expected a refusal, got ${boundedJson(envelope)}`);
  world.expectError(envelope.code);
  let text = JSON.stringify(envelope);
  for (const id of ids) text = text.split(id).join("<ID>");
  return JSON.parse(text);
}

Then("{agent} cannot tell {string} from an operation that does not exist", async function (this: LomiWorld, agent: string, alias: string) {
  const owner = this.request(alias);
  const operationId = this.operationId(alias);
  const missingId = `${operationId}x`;
  await this.call(agent, "lomi_operation_get", { operationId });
  const theirs = refusal(this, [operationId]);
  await this.call(agent, "lomi_operation_get", { operationId: missingId });
  const none = refusal(this, [missingId]);
  expectSame("", theirs, none, { why: "by operationId, another pairing's receipt reads exactly as a missing one" });
  const lookup = (requestKey: unknown) => this.call(agent, "lomi_operation_lookup", { retryEpoch: owner.args.retryEpoch, requestKey, tool: owner.tool });
  await lookup(owner.args.requestKey);
  const theirsByKey = refusal(this, [String(owner.args.requestKey)]);
  await lookup(`${String(owner.args.requestKey)}-missing`);
  const noneByKey = refusal(this, [`${String(owner.args.requestKey)}-missing`]);
  expectSame("", theirsByKey, noneByKey, { why: "by key, another pairing's receipt reads exactly as a missing one" });
});
