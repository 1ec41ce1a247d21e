import { Then, When } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { expectSame } from "../harness/expected-found.js";
import type { OperationState } from "../protocol/states.js";
import { eventPathProblems, type PathDemand } from "./event-path.js";
import { isOperationsOwn } from "../harness/oracles/events.js";
import type { EventPage, LomiWorld } from "./world.js";
import { boundedJson } from "../harness/text/bounded-json.js";

async function readPage(world: LomiWorld, agent: string, workspaceId: string, cursor: string | undefined, limit: number): Promise<EventPage> {
  return world.callOk(agent, "lomi_events_read", { workspaceId, ...(cursor === undefined ? {} : { cursor }), limit });
}

/** Every event of the workspace the agent can read, page after page from the start, in feed order. */
async function readAll(world: LomiWorld, agent: string, workspaceId: string): Promise<EventPage["events"]> {
  const seen: EventPage["events"] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await readPage(world, agent, workspaceId, cursor, 3);
    seen.push(...page.events);
    cursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  // Sequences that do not grow across pages are the events oracle's to judge: these reads are in the history.
  return seen;
}

/** Judges one operation's events by legality and by what the scenario demands, never by one broker's exact path. */
async function judgePath(world: LomiWorld, workspaceId: string, alias: string, demand: Omit<PathDemand, "observed">): Promise<void> {
  const { agent } = world.request(alias);
  const operationId = world.operationId(alias);
  // A broker may settle in its own time: the feed is judged once the receipt shows the state. A receipt that
  // never does is the receipt's finding, not the feed's: the feed is judged against what the receipts showed.
  const receipt = await world.reading(alias, demand.reaches);
  if (receipt.state !== demand.reaches)
    throw violation(
      `operation ${alias} never read ${demand.reaches} (it reads ${receipt.state}), so its events cannot show it reaching ${demand.reaches}`,
      await world.stateRules(receipt, demand.reaches),
    );
  const mine = (await readAll(world, agent, workspaceId)).filter((e) => e.operationId === operationId);
  const shown = world.statesShown(operationId);
  const { illegal, unmet } = eventPathProblems(mine, { ...demand, observed: shown });
  const path = mine.map((e) => e.state).join(" → ");
  // A transition missing or shown twice is the feed's (EVT-01); one no legal transition allows is the operation's (OP-02), unless the receipts showed more.
  const rules = [...new Set(illegal.map((p) => (isOperationsOwn(p, shown) ? "OP-02" : "EVT-01")))];
  if (illegal.length > 0) throw violation(`the events of ${alias} (${path}) are not a legal path: ${illegal.map((p) => p.text).join("; ")}`, rules);
  if (unmet.length > 0)
    throw violation(`the events of ${alias} (${path}): ${unmet.join("; ")}`, unshownDecisionRules(world.request(alias).tool, demand, mine, shown));
}

/**
 * A demanded awaiting_user that neither the feed nor any receipt read showed: the feed showed what
 * the receipts did, and the receipts never said the operation waited for the user. That is the
 * rule of how such an operation reads (OP-30 for a close's guard, OP-40 otherwise), not the feed's
 * nor the scenario's; any other unmet demand is judged by the step's rules.
 */
function unshownDecisionRules(tool: string, demand: Omit<PathDemand, "observed">, events: readonly { state: string }[], shown: readonly string[]): string[] {
  const states = [...events.map((e) => e.state), ...shown];
  if (!demand.through?.includes("awaiting_user") || states.includes("awaiting_user")) return [];
  return [tool === "lomi_workspace_close" ? "OP-30" : "OP-40"];
}

Then(
  "the events of workspace {string} show {string} reaching {state}",
  async function (this: LomiWorld, workspaceId: string, alias: string, reaches: OperationState) {
    await judgePath(this, workspaceId, alias, { reaches });
  },
);

Then(
  "the events of workspace {string} show {string} reaching {state} through {states}",
  async function (this: LomiWorld, workspaceId: string, alias: string, reaches: OperationState, through: OperationState[]) {
    await judgePath(this, workspaceId, alias, { reaches, through });
  },
);

Then(
  "the events of workspace {string} show {string} reaching {state} straight from {state}",
  async function (this: LomiWorld, workspaceId: string, alias: string, reaches: OperationState, from: OperationState) {
    await judgePath(this, workspaceId, alias, { reaches, from });
  },
);

When("{agent} reads the events of workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  const key = `${agent}/${workspaceId}`;
  const page = await readPage(this, agent, workspaceId, this.eventCursors.get(key), 200);
  this.eventCursors.set(key, page.nextCursor);
  this.lastEventPage = page;
});

Then("the page has no events", function (this: LomiWorld) {
  const page = this.lastEventPage;
  expectSame("events", page?.events, [], { why: "an empty page" });
});

Then("the page shows no event of {string}", function (this: LomiWorld, alias: string) {
  const operationId = this.operationId(alias);
  const shown = this.lastEventPage?.events.filter((e) => e.operationId === operationId) ?? [];
  if (shown.length > 0) throw violation(`the page read last shows ${alias} again, though an earlier read showed its transitions: ${boundedJson(shown)}`);
});

/**
 * The page read last shows the operation reaching the state; a broker that settles later shows it
 * on a following read from the cursor (EVT-02: later transitions appear on the next read).
 */
Then("the page shows {string} reaching {state}", async function (this: LomiWorld, alias: string, state: OperationState) {
  const operationId = this.operationId(alias);
  const reached = (page: EventPage | undefined) => page?.events.some((e) => e.operationId === operationId && e.state === state) ?? false;
  if (reached(this.lastEventPage)) return;
  const { agent, args } = this.request(alias);
  await this.reading(alias, state);
  const workspaceId = String(args.workspaceId);
  const key = `${agent}/${workspaceId}`;
  const page = await readPage(this, agent, workspaceId, this.eventCursors.get(key), 200);
  this.eventCursors.set(key, page.nextCursor);
  if (!reached(page)) {
    throw violation(`neither the page read nor the next one shows ${alias} reaching ${state}: ${boundedJson([this.lastEventPage, page])}`);
  }
  this.lastEventPage = page;
});
