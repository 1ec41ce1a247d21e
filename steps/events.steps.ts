import assert from "node:assert/strict";
import { Then, When } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import type { LomiWorld } from "./world.js";

interface EventPage {
  events: Array<{ sequence: string; operationId: string; state: string; previousState: string | null }>;
  nextCursor: string;
  hasMore: boolean;
}

async function readPage(world: LomiWorld, agent: string, workspaceId: string, cursor: string | undefined, limit: number): Promise<EventPage> {
  return (await world.callOk(agent, "lomi_events_read", { workspaceId, ...(cursor === undefined ? {} : { cursor }), limit })) as unknown as EventPage;
}

Then("the events of workspace {string} show {string} passing through {string}", async function (this: LomiWorld, workspaceId: string, alias: string, states: string) {
  const { agent } = this.request(alias);
  const operationId = this.operationId(alias);
  const seen: EventPage["events"] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await readPage(this, agent, workspaceId, cursor, 3);
    seen.push(...page.events);
    cursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  const sequences = seen.map((e) => BigInt(e.sequence));
  if (sequences.some((s, i) => i > 0 && s <= sequences[i - 1]!)) throw violation(`event sequences are not strictly increasing: ${sequences.join(", ")}`);
  const mine = seen.filter((e) => e.operationId === operationId);
  const stateChanges = mine.filter((e, i) => i === 0 || e.state !== mine[i - 1]!.state).map((e) => e.state);
  assert.deepEqual(stateChanges, states.split(",").map((s) => s.trim()), `events of ${alias}: ${JSON.stringify(mine)}`);
  mine.forEach((e, i) => {
    if (i > 0 && e.previousState !== mine[i - 1]!.state) throw violation(`event ${e.sequence} says previousState ${e.previousState}, the feed showed ${mine[i - 1]!.state}`);
  });
});

When("{agent} reads the events of workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  const key = `${agent}/${workspaceId}`;
  const page = await readPage(this, agent, workspaceId, this.eventCursors.get(key), 200);
  this.eventCursors.set(key, page.nextCursor);
  this.lastEventPage = page;
});

Then("the page has no events", function (this: LomiWorld) {
  const page = this.lastEventPage as EventPage | undefined;
  assert.deepEqual(page?.events, [], "expected an empty page");
});

Then("the page shows {string} reaching {word}", function (this: LomiWorld, alias: string, state: string) {
  const page = this.lastEventPage as EventPage | undefined;
  const operationId = this.operationId(alias);
  if (!page?.events.some((e) => e.operationId === operationId && e.state === state)) {
    throw violation(`the page does not show ${alias} reaching ${state}: ${JSON.stringify(page?.events)}`);
  }
});
