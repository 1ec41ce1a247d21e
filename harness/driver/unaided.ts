import { contractOf } from "../../protocol/catalogue.js";
import type { LedgerEntry } from "../../protocol/control-api.js";
import { isSettled } from "../../protocol/states.js";
import { indexedCalls, operationNamed } from "../history/replies.js";
import type { Driver } from "./driver.js";

// When the harness waits for an operation to settle (a step that reads it until it does, or the
// reads before a one-connection broker is restarted for another agent), it stops waiting as soon as
// nothing but the scenario could settle it, instead of waiting --timeout-ms for what cannot come.
// The rule is written for implementers in docs/implementers.md ("Waiting for an operation to settle").

/** What the history and Lomi's ledger say of the operations the broker named. */
interface Known {
  /** The broker's last answer for each operation it named: its state. */
  state: Map<string, string>;
  /** Each operation's serialization target (docs/native-bridge.md), in the order the broker admitted them. */
  admitted: Array<{ operationId: string; target: string }>;
  /** Lomi's dispatches, and those it has settled. */
  dispatched: Set<string>;
  settled: Set<string>;
}

function knownOf(driver: Driver, ledger: readonly LedgerEntry[]): Known {
  const known: Known = { state: new Map(), admitted: [], dispatched: new Set(), settled: new Set() };
  for (const call of indexedCalls(driver)) {
    const op = operationNamed(call.envelope);
    if (!op) continue;
    if (op.state !== undefined) known.state.set(op.operationId, op.state);
    const contract = contractOf(call.tool);
    if (contract?.kind !== "operation" || known.admitted.some((a) => a.operationId === op.operationId)) continue;
    known.admitted.push({ operationId: op.operationId, target: `${contract.serializeOn}:${String(call.args[contract.serializeOn])}` });
  }
  for (const e of ledger) {
    if (e.kind === "dispatch") known.dispatched.add(e.operationId);
    if (e.kind === "settle") known.settled.add(e.operationId);
  }
  return known;
}

/**
 * Why an operation the broker last answered as unsettled cannot settle unless the scenario acts
 * (releases a held dispatch, answers the user's decision, moves Lomi's clock, cancels), or undefined
 * while it may still settle by itself:
 * - Lomi has its dispatch and has not settled it: Lomi answers every request only once its own
 *   work that takes no time is done, so what is left waits for a held dispatch's release, the user's
 *   decision or Lomi's clock, which stands still until a step moves it. The broker can only report
 *   what Lomi does.
 * - the broker answers it `queued`, Lomi never had its dispatch, and an operation the broker admitted
 *   before it on its target is unsettled and cannot settle either: it waits for that one.
 * An operation Lomi has settled may still settle at the broker (it may learn in its own time), and
 * so may one Lomi never had that waits for nothing stuck.
 */
export async function cannotSettleUnaided(driver: Driver, operationId: string): Promise<string | undefined> {
  const known = knownOf(driver, await driver.control.ledger());
  return stuck(known, operationId, new Set());
}

function stuck(known: Known, operationId: string, seen: Set<string>): string | undefined {
  seen.add(operationId);
  const state = known.state.get(operationId);
  if (state === undefined || isSettled(state)) return undefined;
  if (known.dispatched.has(operationId)) {
    return known.settled.has(operationId)
      ? undefined
      : `Lomi has not finished its dispatch, which waits for a step (a held dispatch's release, the user's decision or Lomi's clock)`;
  }
  if (state !== "queued") return undefined;
  const at = known.admitted.findIndex((a) => a.operationId === operationId);
  const target = known.admitted[at]?.target;
  for (const ahead of known.admitted.slice(0, Math.max(at, 0)).filter((a) => a.target === target && !seen.has(a.operationId))) {
    const why = stuck(known, ahead.operationId, seen);
    if (why !== undefined) return `queued behind ${ahead.operationId} on ${target}, which cannot settle either: ${why}`;
  }
  return undefined;
}
