import { admissionOf, receiptIn, type IndexedCall } from "./facts.js";
import type { Invariant, Violation } from "./invariant.js";

/** Refusals that say the broker could not look right now, not that the receipt is gone. */
const TRANSIENT = new Set(["STORE_UNAVAILABLE", "NATIVE_UNAVAILABLE"]);

/** The receipts a read asks for: by operationId, or by the key of an operation this agent was admitted. */
function askedFor(c: IndexedCall, byKey: Map<string, string>): string | undefined {
  if (c.tool === "lomi_operation_get" || c.tool === "lomi_operation_cancel") return typeof c.args.operationId === "string" ? c.args.operationId : undefined;
  if (c.tool === "lomi_operation_lookup") return byKey.get(lookupKey(c.agent, c.args));
  return undefined;
}

const lookupKey = (agent: string, a: Record<string, unknown>) => [agent, a.retryEpoch, a.requestKey, a.tool].map(String).join("\u0000");

/**
 * Every operationId an agent was given stays readable by that agent's pairing — by id and by key, from
 * later connections and after restarts — and reads the operation asked for.
 */
export const receiptsReadable: Invariant = {
  id: "receipts-readable",
  rules: ["IDEM-05", "DUR-02", "OP-03", "EPOCH-04"],
  title: "every operationId ever returned stays readable by its pairing",
  needsLedger: false,
  check(facts) {
    const found: Violation[] = [];
    const byKey = new Map<string, string>();
    for (const c of facts.calls) {
      const admission = admissionOf(c);
      if (admission) byKey.set(lookupKey(c.agent, { ...c.args, tool: c.tool }), admission.receipt.operationId);
      const id = askedFor(c, byKey);
      const owner = id === undefined ? undefined : facts.owners.get(id);
      if (!id || !owner || owner.agent !== c.agent || owner.index >= c.index || c.reply.status !== "answered") continue;
      const env = c.envelope;
      if (env?.status === "error" && !TRANSIENT.has(env.code)) {
        found.push({ message: `${c.agent} was given ${id}, and ${c.tool} answered ${env.code} ("${env.message}"); the pairing's receipt must stay readable`, records: [owner.index, c.index] });
      } else if (env?.status === "ok" && receiptIn(c)?.operationId !== id) {
        found.push({ message: `${c.tool} for ${id} answered another receipt (${receiptIn(c)?.operationId ?? "none"})`, records: [owner.index, c.index] });
      }
    }
    return found;
  },
};

/** A receipt reaches only the pairing it belongs to; another pairing is answered as if it did not exist. */
export const pairingIsolation: Invariant = {
  id: "pairing-isolation",
  rules: ["AUTH-05"],
  title: "no pairing sees another's receipts",
  needsLedger: false,
  check(facts) {
    const found: Violation[] = [];
    for (const c of facts.calls) {
      const receipt = receiptIn(c);
      const owner = receipt && facts.owners.get(receipt.operationId);
      if (owner && owner.agent !== c.agent) {
        found.push({ message: `${c.agent} read ${receipt.operationId} through ${c.tool}, an operation of ${owner.agent}`, records: [owner.index, c.index] });
      }
    }
    return found;
  },
};
