import { EVENTS_PAGE_MAX } from "../../protocol/tools/operation.js";
import { isSettled } from "../../protocol/states.js";
import { indexedCalls, looseEnvelope, operationNamed } from "../history/replies.js";
import { toldOf } from "../history/told.js";
import { inFlight, REFUSED_TOGETHER } from "../connection/in-flight.js";
import { clientNameOf, type Driver } from "./driver.js";
import { cannotSettleUnaided } from "./unaided.js";

/** Reads of operations in flight at once. */
const READS_IN_FLIGHT = 16;
/** A clock as found at load: a scenario's fake or patched timers cannot stretch or shrink a wait. */
const realNow = performance.now.bind(performance);
/** How many pages of one workspace's feed the sweep reads at most (4,096 receipts make about 60). */
const MAX_PAGES = 200;

/** The data of an ok reply, read loosely: the oracles judge its shape, the sweep only follows it. */
const okDataOf = (structuredContent: unknown): Record<string, unknown> | undefined => {
  const envelope = looseEnvelope(structuredContent);
  return envelope?.status === "ok" ? envelope.data : undefined;
};

/** What the driver's history says each agent was told (harness/history/told.ts). */
const toldByAgent = (driver: Driver) => toldOf(indexedCalls(driver));

/**
 * An operation the agents on these connections were told of that is not settled yet, each read until
 * it settles, until nothing but the scenario could settle it (`why`, harness/driver/unaided.ts), or
 * until `timeoutMs` has passed: what a restart of a one-connection broker would leave
 * outcome_unknown. One that cannot be read (a refusal) is not waited for.
 */
export async function unsettledOperation(
  driver: Driver,
  connections: readonly string[],
  timeoutMs: number,
): Promise<{ agent: string; operationId: string; state: string; why: string } | undefined> {
  const told = toldByAgent(driver);
  const deadline = realNow() + timeoutMs;
  for (const connection of connections) {
    const agent = clientNameOf(connection);
    for (const operationId of told.get(agent)?.operations.keys() ?? []) {
      for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
        const answer = await driver.call(connection, "lomi_operation_get", { operationId });
        const state = "reply" in answer ? operationNamed(looseEnvelope(answer.reply.structuredContent))?.state : undefined;
        if (typeof state !== "string" || isSettled(state)) break;
        const stuck = await cannotSettleUnaided(driver, operationId);
        if (stuck !== undefined) return { agent, operationId, state, why: stuck };
        if (realNow() > deadline) return { agent, operationId, state, why: `it did not settle within ${timeoutMs} ms (--timeout-ms)` };
        await driver.pause(pause);
      }
    }
  }
  return undefined;
}

/** A connection of the agent's to read on: one it has open, else a new one where the broker can take it without a restart. */
function readerFor(driver: Driver, agent: string): string | undefined {
  const open = driver.connectionNames().find((n) => clientNameOf(n) === agent);
  if (open) return open;
  if (driver.adapter.capabilities.has("multi-connection") || driver.connectionNames().length === 0) return `${agent}@end`;
  return undefined;
}

/**
 * The reads every run ends with, scenario or explore, so the oracles see each operation's last
 * state and every transition: each agent reads every operation it was told of (and every one Lomi
 * dispatched under its pairing), then the events feed of each workspace it connected to, from where
 * it left it to the end. An agent the broker cannot take without a restart (a stdio broker serves
 * one connection) is not read, unless `restartToSwitch` (explore, whose runs restart the broker to
 * switch agents anyway): a scenario's restart would change what it ends on. Whatever the broker answers
 * is recorded, a lost reply included; nothing here fails the run.
 */
export async function sweep(driver: Driver, options: { restartToSwitch?: boolean } = {}): Promise<{ agentsNotRead: string[] }> {
  // What each agent reads: the operations it was told of, and the feeds of the workspaces it connected to.
  const toRead = new Map([...toldByAgent(driver)].map(([agent, t]) => [agent, { operationIds: new Set(t.operations.keys()), feeds: t.feeds }]));
  // An operation Lomi received that its agent was never told of: its admission's reply was lost, or the broker crashed.
  const untold = driver.records.some((r) => (r.type === "call" && r.reply.status === "lost") || (r.type === "fault" && r.kind === "broker-crash"));
  if (untold) {
    const byPairing = new Map((await driver.control.pairings()).map((p) => [p.pairingId, p.clientName]));
    for (const e of await driver.control.ledger()) {
      const agent = byPairing.get(e.pairingId);
      if (!agent || e.kind !== "dispatch" || e.detail.permit === undefined) continue;
      const reads = toRead.get(agent);
      if (reads) reads.operationIds.add(e.operationId);
      else toRead.set(agent, { operationIds: new Set([e.operationId]), feeds: new Map() });
    }
  }
  const agentsNotRead: string[] = [];
  for (const [agent, { operationIds, feeds }] of toRead) {
    if (operationIds.size === 0 && feeds.size === 0) continue;
    let reader = readerFor(driver, agent);
    if (!reader && options.restartToSwitch) {
      await driver.crash({ reason: `${agent} reads what it was told: this broker serves one connection at a time` });
      await driver.restart();
      reader = readerFor(driver, agent);
    }
    if (!reader) {
      agentsNotRead.push(agent);
      continue;
    }
    try {
      // Several reads in flight: thousands of receipts behind a slow broker take a round trip a lane.
      // A broker that stopped answering would make every read wait --timeout-ms: one lost reply ends the sweep.
      const ids = [...operationIds];
      // A broker that cannot take reads in flight together answers them a JSON-RPC error: they go one at a time.
      const allAnswered = await inFlight(ids.length, READS_IN_FLIGHT, async (i, together) => {
        const answer = await driver.call(reader, "lomi_operation_get", { operationId: ids[i]! });
        return together && "rpcError" in answer && answer.rpcError ? REFUSED_TOGETHER : "reply" in answer;
      });
      if (!allAnswered) return { agentsNotRead: [...agentsNotRead, agent] };
      for (const [workspaceId, from] of feeds) {
        let cursor = from;
        for (let page = 0; page < MAX_PAGES; page++) {
          const answer = await driver.call(reader, "lomi_events_read", { workspaceId, ...(cursor === undefined ? {} : { cursor }), limit: EVENTS_PAGE_MAX });
          if (!("reply" in answer)) return { agentsNotRead: [...agentsNotRead, agent] };
          const data = okDataOf(answer.reply.structuredContent);
          if (!data || typeof data.nextCursor !== "string") break;
          cursor = data.nextCursor;
          if (data.hasMore !== true) break;
        }
      }
    } catch {
      // The broker could not be reached at all (one the scenario left dead): what was read is recorded.
      agentsNotRead.push(agent);
    }
  }
  return { agentsNotRead };
}
