import { RETRY_EPOCH_VALIDITY_MS } from "../../protocol/tools/workspace.js";
import { forgettable, type Facts } from "./facts.js";
import { admissionOf, receiptIn, type IndexedCall } from "../history/replies.js";
import { whenTold } from "../history/told.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { crashBetween, NOT_ABOUT_THE_RECEIPT } from "./finding-rules.js";

/**
 * The receipts a read asks for: by operationId, or by the key of an operation this agent was
 * admitted. A lookup naming another anchor project than the admission did asks for another key.
 */
function askedFor(c: IndexedCall, byKey: Map<string, { operationId: string; projectId: unknown }>): string | undefined {
  if (c.tool === "lomi_operation_get" || c.tool === "lomi_operation_cancel") return typeof c.args.operationId === "string" ? c.args.operationId : undefined;
  if (c.tool !== "lomi_operation_lookup") return undefined;
  const admitted = byKey.get(lookupKey(c.agent, c.args));
  // The key binds the anchor project (IDEM-04): a lookup naming another, or none where the admission named one, asks for another key.
  const otherProject = admitted?.projectId !== undefined && c.args.projectId !== admitted.projectId;
  return otherProject ? undefined : admitted?.operationId;
}

const lookupKey = (agent: string, a: Record<string, unknown>) => [agent, a.retryEpoch, a.requestKey, a.tool].map(String).join("\u0000");

/**
 * What readAcross asks of a history for each read, worked out once per history: its completed
 * reconciliations, and each call by its record's index (a full store's history reads 4,000
 * receipts among 12,000 calls: a search of the calls per read took seconds).
 */
const lookups = new WeakMap<Facts, { reconciled: number[]; byIndex: Map<number, IndexedCall> }>();
function lookupsOf(facts: Facts) {
  let found = lookups.get(facts);
  if (!found) {
    const reconciled = facts.calls
      .filter((r) => r.tool === "lomi_store_reconcile" && r.envelope?.status === "ok" && r.envelope.data.status === "completed")
      .map((r) => r.index);
    found = { reconciled, byIndex: new Map(facts.calls.map((c) => [c.index, c])) };
    lookups.set(facts, found);
  }
  return found;
}

/** Whether a completed reconciliation came between two records: it may have removed what was told (CAP-04 judges what it kept). */
const reconciledBetween = (facts: Facts, from: number, to: number) => lookupsOf(facts).reconciled.some((i) => i > from && i < to);

/**
 * The rules a read of a receipt the pairing was told of is about, by where it stands: finding by id
 * or key (IDEM-05); across a restart, surviving it (DUR-02); from another connection, reading there
 * (EPOCH-04); more than an epoch's 24 hours later, staying though expired (CAP-03); after a
 * reconciliation, kept by it (CAP-04 alone: a completed one may remove what it may).
 */
function readAcross(facts: Facts, toldAt: number, c: IndexedCall): string[] {
  if (reconciledBetween(facts, toldAt, c.index)) return ["CAP-04"];
  const told = lookupsOf(facts).byIndex.get(toldAt);
  const expired = told !== undefined && Date.parse(c.sentAt) - Date.parse(told.sentAt) > RETRY_EPOCH_VALIDITY_MS;
  const crashed = crashBetween(facts.crashes, toldAt, c.index);
  return [
    "IDEM-05",
    ...(expired ? ["CAP-03"] : []),
    ...(crashed ? ["DUR-02"] : []),
    ...(told && told.connection !== c.connection && !crashed ? ["EPOCH-04"] : []),
  ];
}

/** Every answered read (get, lookup, cancel) of a receipt its reader's pairing was told of before: what receipts-readable judges. */
function readsOfToldReceipts(facts: Facts): Array<{ c: IndexedCall; id: string; toldAt: number }> {
  const reads: Array<{ c: IndexedCall; id: string; toldAt: number }> = [];
  const byKey = new Map<string, { operationId: string; projectId: unknown }>();
  for (const c of facts.calls) {
    const admission = admissionOf(c);
    if (admission) byKey.set(lookupKey(c.agent, { ...c.args, tool: c.tool }), { operationId: admission.receipt.operationId, projectId: c.args.projectId });
    const id = askedFor(c, byKey);
    // Another pairing's operation the agent was shown (a feed that leaked it) is not its to read: NOT_FOUND is right.
    const othersOwn = id !== undefined && (facts.owners.get(id)?.agent ?? c.agent) !== c.agent;
    const toldAt = id === undefined || othersOwn ? undefined : whenTold(facts.told, c.agent, id);
    if (id !== undefined && toldAt !== undefined && toldAt < c.index && c.reply.status === "answered") reads.push({ c, id, toldAt });
  }
  return reads;
}

/**
 * Every operationId an agent was told of — in an admission, a read, a lookup or an event — stays
 * readable by that agent's pairing, by id and by key, from later connections and after restarts,
 * until a deliberate reconciliation may remove it; and a read answers the operation asked for.
 * Each run ends by reading every one of them (the sweep), so a receipt that quietly went is seen.
 * An error other than NOT_FOUND for a receipt that exists is a failure read as an error (OP-03).
 */
export const receiptsReadable: Oracle = {
  id: "receipts-readable",
  rules: ["IDEM-05", "DUR-02", "OP-03", "EPOCH-04", "CAP-03", "CAP-04"],
  title: "every operationId an agent was told stays readable by its pairing",
  needsLedger: false,
  check(facts) {
    const found: Violation[] = [];
    const mayBeGone = forgettable(facts);
    for (const { c, id, toldAt } of readsOfToldReceipts(facts)) {
      const env = c.envelope;
      // A receipt a reconciliation may have removed is the steps' to judge, whatever its refusal says.
      if (env?.status === "error" && !NOT_ABOUT_THE_RECEIPT.has(env.code) && !mayBeGone(id, c.index)) {
        const rules = env.code === "NOT_FOUND" ? readAcross(facts, toldAt, c) : ["OP-03"];
        found.push({
          message: `${c.agent} was told of ${id}, and ${c.tool} answered ${env.code} ("${env.message}"); the pairing's receipt must stay readable`,
          records: [toldAt, c.index],
          rules,
        });
      } else if (env?.status === "ok" && receiptIn(c)?.operationId !== id) {
        found.push({
          message: `${c.tool} for ${id} answered another receipt (${receiptIn(c)?.operationId ?? "none"})`,
          records: [toldAt, c.index],
          rules: ["IDEM-05"],
        });
      }
    }
    return found;
  },
  triggers(facts) {
    const tally = new Tally();
    for (const { c, toldAt } of readsOfToldReceipts(facts)) tally.add(["OP-03", ...readAcross(facts, toldAt, c)]);
    return tally.triggers;
  },
};

/** The tools that read a receipt by its operationId or its key. */
const RECEIPT_READS: ReadonlySet<string> = new Set(["lomi_operation_get", "lomi_operation_lookup", "lomi_operation_cancel"]);

/** A receipt reaches only the pairing it belongs to; another pairing is answered as if it did not exist. (Its events are the feed's: events-scoped.) */
export const pairingIsolation: Oracle = {
  id: "pairing-isolation",
  rules: ["AUTH-05"],
  title: "no pairing reads another's receipts",
  needsLedger: false,
  check(facts) {
    const found: Violation[] = [];
    for (const c of facts.calls) {
      const receipt = receiptIn(c);
      const owner = receipt && facts.owners.get(receipt.operationId);
      if (owner && owner.agent !== c.agent) {
        found.push({
          message: `${c.agent} read ${receipt.operationId} through ${c.tool}, an operation of ${owner.agent}`,
          records: [owner.index, c.index],
          rules: ["AUTH-05"],
        });
      }
    }
    return found;
  },
  /** Each receipt read (by id or key) while another pairing had operations: what it must not be shown. */
  triggers({ calls, owners }) {
    const tally = new Tally();
    const seen = new Set<string>();
    for (const c of calls) {
      const admission = admissionOf(c);
      if (admission && owners.get(admission.receipt.operationId)?.index === c.index) seen.add(c.agent);
      if (RECEIPT_READS.has(c.tool) && c.reply.status === "answered" && [...seen].some((agent) => agent !== c.agent)) tally.add("AUTH-05");
    }
    return tally.triggers;
  },
};
