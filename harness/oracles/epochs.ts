import { admissionOf, type IndexedCall } from "../history/replies.js";
import { identityOf } from "./idempotency.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { isOperationTool } from "../history/replies.js";

/**
 * Asked of each call in the order they were recorded: whether a call before it carried its identity.
 * One pass over the history, not a search of it per call (a full store's history holds 12,000 calls).
 */
function identitiesSentBefore(): (c: IndexedCall) => boolean {
  const seen = new Set<string>();
  return (c) => {
    const identity = identityOf(c);
    const before = seen.has(identity);
    seen.add(identity);
    return before;
  };
}

/**
 * A new operation is admitted only under an epoch lomi_connect gave this very connection, of the
 * broker instance still running, within its 24 hours on Lomi's clock. (A retry of a known identity
 * is the idempotency invariant's business: it must return its operation whatever the epoch.)
 */
export const epochAuthority: Oracle = {
  id: "epoch-authority",
  rules: ["EPOCH-01", "EPOCH-03", "EPOCH-04"],
  title: "a stale, foreign or expired retry epoch admits nothing new",
  needsLedger: false,
  check({ history, calls, crashes, owners }) {
    const found: Violation[] = [];
    // A recorder's clock is not Lomi's: an expiry on Lomi's clock cannot be compared with it.
    const onLomisClock = history.header?.clock !== "recorder";
    const epochs = new Map<string, { index: number; connection: string; expiresAt: number }>();
    const sentBefore = identitiesSentBefore();
    for (const c of calls) {
      if (c.tool === "lomi_connect" && c.envelope?.status === "ok" && typeof c.envelope.data.retryEpoch === "string") {
        epochs.set(c.envelope.data.retryEpoch, {
          index: c.index,
          connection: c.connection,
          expiresAt: Date.parse(String(c.envelope.data.retryEpochExpiresAt)),
        });
      }
      const retried = sentBefore(c);
      const admission = admissionOf(c);
      if (!admission || admission.duplicate || owners.get(admission.receipt.operationId)?.index !== c.index) continue;
      // A retry of an identity sent before (its reply lost, or cut by a crash) returns its operation whatever it says of
      // itself: the idempotency invariant's business, not a new admission.
      if (retried) continue;
      const epoch = epochs.get(String(c.args.retryEpoch));
      if (!epoch) continue; // an epoch this history never saw given out: nothing to judge it by
      const crash = crashes.find((x) => x > epoch.index && x < c.index);
      const why: [string, string] | undefined =
        crash !== undefined
          ? ["from a broker instance that has since crashed", "EPOCH-01"]
          : epoch.connection !== c.connection
            ? [`given to connection ${epoch.connection}, used from ${c.connection}`, "EPOCH-04"]
            : onLomisClock && Date.parse(c.sentAt) > epoch.expiresAt
              ? [`expired at ${new Date(epoch.expiresAt).toISOString()} on Lomi's clock (sent at ${c.sentAt})`, "EPOCH-03"]
              : undefined;
      if (why)
        found.push({
          message: `${c.tool} "${c.args.requestKey}" admitted a new operation ${admission.receipt.operationId} under a retry epoch ${why[0]}`,
          records: [epoch.index, ...(crash !== undefined ? [crash] : []), c.index],
          rules: [why[1]],
        });
    }
    return found;
  },
  /** Each new submission (an operation call under an identity not sent before) under an epoch of a crashed instance (EPOCH-01), of another connection (EPOCH-04), or past its 24 hours (EPOCH-03). */
  triggers({ history, calls, crashes }) {
    const tally = new Tally();
    const onLomisClock = history.header?.clock !== "recorder";
    const epochs = new Map<string, { index: number; connection: string; expiresAt: number }>();
    const sentBefore = identitiesSentBefore();
    for (const c of calls) {
      if (c.tool === "lomi_connect" && c.envelope?.status === "ok" && typeof c.envelope.data.retryEpoch === "string") {
        epochs.set(c.envelope.data.retryEpoch, {
          index: c.index,
          connection: c.connection,
          expiresAt: Date.parse(String(c.envelope.data.retryEpochExpiresAt)),
        });
      }
      const retried = sentBefore(c);
      const epoch = epochs.get(String(c.args.retryEpoch));
      if (!epoch || !isOperationTool(c.tool) || retried) continue;
      if (crashes.some((x) => x > epoch.index && x < c.index)) tally.add("EPOCH-01");
      else if (epoch.connection !== c.connection) tally.add("EPOCH-04");
      else if (onLomisClock && Date.parse(c.sentAt) > epoch.expiresAt) tally.add("EPOCH-03");
    }
    return tally.triggers;
  },
};
