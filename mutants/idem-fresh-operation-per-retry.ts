import { contractOf } from "../protocol/catalogue.js";
import { canonicalJson, sha256Hex } from "../reference-broker/fingerprint.js";
import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { Reservation } from "../reference-broker/receipt-store.js";
import type { Mutant } from "./mutant.js";
import { storeReachedBy, storeWrappedBy } from "./wrapped-store.js";
import { sessionWrappingPicked } from "./rewriting-session.js";

/**
 * Misses a receipt by its key while `forgetting` (an identical retry is being admitted), and then
 * reserves the fresh receipt under a key of its own, so the unique key constraint lets it in. Key
 * lookups and changed arguments find the receipt as the reference broker does.
 */
class RetryBlindStore extends DelegatingReceiptStore {
  forgetting = false;
  override byKey(receiptKey: string) {
    return this.forgetting ? undefined : super.byKey(receiptKey);
  }
  override reserveAll(reservations: readonly Reservation[]) {
    if (!this.forgetting) return super.reserveAll(reservations);
    return super.reserveAll(
      reservations.map((r) => ({ ...r, receipt: { ...r.receipt, receiptKey: sha256Hex(r.receipt.receiptKey + r.receipt.operationId) } })),
    );
  }
}

const isOperation = ({ tool }: { tool: string }) => contractOf(tool)?.kind === "operation";

/** Per broker instance, the requests it has admitted: identity → arguments (a restart forgets them, as a cache would). */
const admitted = new WeakMap<object, Map<string, string>>();

export const idemFreshOperationPerRetry: Mutant = {
  name: "idem-fresh-operation-per-retry",
  family: "IDEM",
  // A retry with the same identity and arguments makes another operation: IDEM-01's "return the prior
  // operation and dispatch nothing more", IDEM-07's "one operation" for identical requests together,
  // and EPOCH-03's "a retry of a request admitted in time still returns its operation".
  breaks: ["IDEM-01", "IDEM-07", "EPOCH-03"],
  defect:
    "a retry with the same identity and the same arguments becomes a fresh operation and is dispatched again (changed arguments still conflict, key lookups still find the first)",
  // Only an operation's admission can be a retry: its store forgets only while the session admits one.
  parts: {
    openStore: storeReachedBy(
      isOperation,
      storeWrappedBy((inner) => new RetryBlindStore(inner)),
    ),
    session: sessionWrappingPicked(isOperation, async ({ call, core, clientName }, name, args) => {
      const store = core.store;
      if (!(store instanceof RetryBlindStore)) return call(name, args);
      const seen = admitted.get(core) ?? new Map<string, string>();
      admitted.set(core, seen);
      const identity = canonicalJson([clientName(), name, args.retryEpoch, args.requestKey, args.workspaceId, args.projectId ?? null]);
      const payload = canonicalJson(args);
      const retry = seen.get(identity) === payload;
      seen.set(identity, payload);
      if (!retry) return call(name, args);
      store.forgetting = true;
      try {
        return await call(name, args);
      } finally {
        store.forgetting = false;
      }
    }),
  },
};
