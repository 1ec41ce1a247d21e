import { Then, When } from "@cucumber/cucumber";
import { configError, violation } from "../harness/harness-error.js";
import { expectChanged, expectSame } from "../harness/expected-found.js";
import type { Reply } from "../harness/connection/mcp-connection.js";
import { ORDERED_INPUT_NAMES } from "../protocol/tools/input.js";
import { observedRuntime } from "./placeholders.js";
import type { LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

// Leases, ordered input, terminal output and Android runtimes.

/** Gherkin strings are literal; "\n" in a step means a newline. */
const unescape = (text: string): string => JSON.parse(`"${text.replace(/"/g, '\\"')}"`);

async function terminalOf(world: LomiWorld, alias: string): Promise<{ workspaceId: string; terminalSessionId: string }> {
  const created = await world.settledAs(alias, "lomi_terminal_create");
  const terminalSessionId = created.result?.terminalSessionId;
  if (typeof terminalSessionId !== "string") throw configError(`operation "${alias}" has no terminalSessionId in its result`);
  return { workspaceId: String(world.request(alias).args.workspaceId), terminalSessionId };
}

async function acquire(world: LomiWorld, agent: string, alias: string, workspaceId: string, runtime: Record<string, unknown>): Promise<void> {
  const reply = await world.call(agent, "lomi_lease_acquire", { workspaceId, runtime });
  if (reply.envelope.status !== "ok") {
    world.refusedLeases.set(alias, { ...reply, envelope: reply.envelope });
    return;
  }
  const { leaseId } = world.dataOf("lomi_lease_acquire", reply);
  world.leases.set(alias, { agent, workspaceId, leaseId, runtime, dispatches: new Map() });
}

/** Sends ordered input under a named lease, to the runtime it was acquired for, and notes a new dispatch. */
async function sendInput(world: LomiWorld, agent: string, alias: string, sequence: number, tool: string, payload: Record<string, unknown>): Promise<Reply> {
  const named = world.lease(alias);
  const { kind: _kind, ...runtime } = named.runtime;
  const reply = await world.call(agent, tool, {
    workspaceId: named.workspaceId,
    ...runtime,
    leaseId: named.leaseId,
    inputSequence: String(sequence),
    ...payload,
  });
  if (reply.envelope.status !== "ok") return reply;
  const data = world.dataOf(ORDERED_INPUT_NAMES, reply);
  if (data.acknowledged === "dispatched") named.dispatches.set(data.inputSequence, data.dispatchId);
  return reply;
}

When("{agent} acquires the lease of the terminal of {string} as {string}", async function (this: LomiWorld, agent: string, terminal: string, alias: string) {
  const { workspaceId, terminalSessionId } = await terminalOf(this, terminal);
  await acquire(this, agent, alias, workspaceId, { kind: "terminal", terminalSessionId });
});

// Lomi's act, whichever broker serves the other client: a broker serving one connection at a time is judged on it without a restart, which would expire the lease itself.
When("client {string} of Lomi takes over the lease of the terminal of {string}", async function (this: LomiWorld, clientName: string, terminal: string) {
  const { terminalSessionId } = await terminalOf(this, terminal);
  await this.control.takeOverLease(clientName, { kind: "terminal", terminalSessionId });
});

When(
  "{agent} takes the lease the terminal of {string} came with as {string}",
  async function (this: LomiWorld, agent: string, terminal: string, alias: string) {
    const { workspaceId, terminalSessionId } = await terminalOf(this, terminal);
    const leaseId = (await this.settledAs(terminal, "lomi_terminal_create")).result?.leaseId;
    if (typeof leaseId !== "string") throw violation(`the confirmed result of "${terminal}" carries no leaseId`);
    this.leases.set(alias, { agent, workspaceId, leaseId, runtime: { kind: "terminal", terminalSessionId }, dispatches: new Map() });
  },
);

When(
  "{agent} acquires the lease of Android panel {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, panelId: string, workspaceId: string, alias: string) {
    await acquire(this, agent, alias, workspaceId, { kind: "android", panelId, generation: observedRuntime(this, panelId) });
  },
);

When("{agent} sends input {int} {string} under lease {string}", async function (this: LomiWorld, agent: string, sequence: number, text: string, alias: string) {
  await sendInput(this, agent, alias, sequence, "lomi_terminal_input", { text: unescape(text) });
});

When(
  "{agent} sends input {int} {string} under lease {string} twice at once",
  async function (this: LomiWorld, agent: string, sequence: number, text: string, alias: string) {
    const replies = await Promise.all([0, 1].map(() => sendInput(this, agent, alias, sequence, "lomi_terminal_input", { text: unescape(text) })));
    const acknowledged = replies.map((r) => this.dataOf("lomi_terminal_input", r).acknowledged).sort();
    expectSame("acknowledged, sorted", acknowledged, ["dispatched", "prior-dispatch"], {
      why: "identical inputs at once: one dispatch, one acknowledgement of it",
    });
  },
);

When("{agent} sends Ctrl+C as input {int} under lease {string}", async function (this: LomiWorld, agent: string, sequence: number, alias: string) {
  await sendInput(this, agent, alias, sequence, "lomi_terminal_interrupt", {});
});

When(
  "{agent} taps \\({int}, {int}) as input {int} under lease {string}",
  async function (this: LomiWorld, agent: string, x: number, y: number, sequence: number, alias: string) {
    await sendInput(this, agent, alias, sequence, "lomi_android_input", { input: { kind: "tap", x, y } });
  },
);

When(
  "{agent} presses the {string} key as input {int} under lease {string}",
  async function (this: LomiWorld, agent: string, key: string, sequence: number, alias: string) {
    await sendInput(this, agent, alias, sequence, "lomi_android_input", { input: { kind: "key", key } });
  },
);

When(
  "{agent} launches {string} on Android panel {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, appId: string, panelId: string, workspaceId: string, alias: string) {
    await this.send(alias, agent, "lomi_android_launch", {
      workspaceId,
      panelId,
      generation: observedRuntime(this, panelId),
      appId,
      retryEpoch: this.epochFor(agent, workspaceId).retryEpoch,
      requestKey: `launch-${alias}`,
    });
  },
);

When("the runtime of Android panel {string} restarts", async function (this: LomiWorld, panelId: string) {
  await this.control.restartRuntime(panelId);
});

Then("the reply acknowledges a new dispatch", function (this: LomiWorld) {
  const data = this.dataOf(ORDERED_INPUT_NAMES);
  expectSame("acknowledged", data.acknowledged, "dispatched", { why: "a new dispatch", seen: { label: "the reply's data", value: data } });
});

Then("the reply acknowledges the prior dispatch of input {int} under lease {string}", function (this: LomiWorld, sequence: number, alias: string) {
  const data = this.dataOf(ORDERED_INPUT_NAMES);
  const prior = this.lease(alias).dispatches.get(String(sequence));
  if (!prior) throw configError(`input ${sequence} under lease "${alias}" was never reported dispatched`);
  expectSame(
    "",
    { acknowledged: data.acknowledged, dispatchId: data.dispatchId },
    { acknowledged: "prior-dispatch", dispatchId: prior },
    { why: "a duplicate acknowledges the earlier dispatch" },
  );
});

Then("the reply confirms the interrupt was dispatched, not that the command exited", function (this: LomiWorld) {
  const data = this.dataOf("lomi_terminal_interrupt");
  expectSame("", { acknowledged: data.acknowledged, exitConfirmed: data.exitConfirmed }, { acknowledged: "dispatched", exitConfirmed: false });
});

Then("the error says the next inputSequence is {string}", function (this: LomiWorld, next: string) {
  const envelope = this.lastReply?.envelope;
  if (envelope?.status !== "error") throw violation("the last reply is not an error");
  expectSame("details.nextInputSequence", envelope.details?.nextInputSequence, next, {
    why: "the refusal names the next sequence",
    seen: { label: "the error", value: envelope },
  });
});

Then(
  "reading the terminal of {string} {int} characters at a time gives {string}",
  async function (this: LomiWorld, terminal: string, limit: number, expected: string) {
    const { workspaceId, terminalSessionId } = await terminalOf(this, terminal);
    const agent = this.request(terminal).agent;
    let text = "";
    let cursor: string | undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const page = await this.callOk(agent, "lomi_terminal_read", { workspaceId, terminalSessionId, limit, ...(cursor === undefined ? {} : { cursor }) });
      if (page.text.length > limit) throw violation(`a page of ${page.text.length} characters exceeds the limit ${limit}`);
      text += page.text;
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    expectSame("the text read", text, unescape(expected));
  },
);

Then("operation {string} confirms the intent was delivered, not the screen", async function (this: LomiWorld, alias: string) {
  const receipt = await this.settledAs(alias, "lomi_android_launch");
  expectSame(
    "",
    { state: receipt.state, result: { intentDelivered: receipt.result?.intentDelivered, screenConfirmed: receipt.result?.screenConfirmed } },
    { state: "succeeded", result: { intentDelivered: true, screenConfirmed: false } },
    { why: `operation "${alias}"`, seen: { label: "the receipt", value: receipt } },
  );
});

Then(
  "Lomi still shows Android panel {string} in workspace {string}, with a new generation",
  async function (this: LomiWorld, panelId: string, workspaceId: string) {
    const ws = (await this.control.snapshot()).workspaces.find((w) => w.workspaceId === workspaceId);
    const panel = ws?.panels.find((p) => p.panelId === panelId);
    if (panel?.kind !== "android") throw violation(`Lomi no longer shows Android panel ${panelId}: ${boundedJson(ws?.panels)}`);
    expectChanged(`generation of ${panelId}`, panel.generation, observedRuntime(this, panelId), { why: "a restart gives the runtime a new generation" });
  },
);

Then("the terminal page has {string} and continues at {string}", function (this: LomiWorld, text: string, nextCursor: string) {
  const page = this.dataOf("lomi_terminal_read");
  expectSame("", { text: page.text, nextCursor: page.nextCursor }, { text: unescape(text), nextCursor });
});

Then("no event of workspace {string} carries {string}", async function (this: LomiWorld, workspaceId: string, text: string) {
  const { events } = await this.callOk("agent", "lomi_events_read", { workspaceId, limit: 200 });
  if (events.length === 0) throw configError("the events feed is empty: nothing to compare with the terminal's output");
  const carrying = events.filter((e) => JSON.stringify(e).includes(text));
  if (carrying.length > 0) throw violation(`the events feed carries terminal output: ${boundedJson(carrying)}`);
});
