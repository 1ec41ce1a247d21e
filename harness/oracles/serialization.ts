import { contractOf } from "../../protocol/catalogue.js";
import { ofKind, type LedgerEntryOf } from "../../protocol/control-api.js";
import type { OperationContract } from "../../protocol/tool-contract.js";
import { crashBetween } from "./finding-rules.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";

type Dispatch = LedgerEntryOf<"dispatch">;

/** The target an operation is serialized on (docs/native-bridge.md, "Serialization targets"): its tool's serializeOn field, as Lomi received it. */
function targetOf(entry: Dispatch): string | undefined {
  const contract = contractOf(entry.tool);
  if (contract?.kind !== "operation") return undefined;
  const field = (contract as OperationContract).serializeOn;
  return `${entry.pairingId}\u0000${field}\u0000${String(entry.detail.args[field])}`;
}

/**
 * One operation at a time per target: Lomi never receives an operation while another on its target,
 * dispatched before it, is still unsettled there. Judged between operations one broker instance
 * admitted and dispatched: a restart makes the unfinished outcome_unknown, which frees their targets,
 * though Lomi may still hold them (work a restarted broker dispatches is DUR-01's business).
 */
export const oneAtATimePerTarget: Oracle = {
  id: "one-at-a-time-per-target",
  rules: ["SERIAL-01"],
  title: "operations on one target are dispatched one at a time",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    const ledger = facts.history.ledger ?? [];
    const settledAt = new Map(ledger.filter(ofKind("settle")).map((e) => [e.operationId, e.sequence]));
    const admittedAt = (operationId: string) => facts.owners.get(operationId)?.index;
    // Where Lomi's ledger stood at each crash (the driver records it): dispatches on either side came from two instances.
    const crashedAt = facts.faults.flatMap((f) => (f.kind === "broker-crash" && typeof f.detail.ledgerSequence === "number" ? [f.detail.ledgerSequence] : []));
    const crashedBetween = (from: number, to: number) => crashedAt.some((at) => at >= from && at < to);
    const dispatches = ledger.filter(ofKind("dispatch"));
    // Lomi numbers its ledger in order; a history written otherwise keeps every earlier dispatch below.
    const numberedInOrder = dispatches.every((e, i) => i === 0 || dispatches[i - 1]!.sequence < e.sequence);
    /**
     * Per target, the operations Lomi has received there, in ledger order, less those settled before
     * the latest dispatch there: settled before it, they are settled before every later one and can
     * make none wait (a store fill's thousands of commands stay linear, not quadratic).
     */
    const onTarget = new Map<string, Dispatch[]>();
    for (const entry of dispatches) {
      const target = targetOf(entry);
      if (target === undefined) continue;
      const known = onTarget.get(target) ?? [];
      const earlier = numberedInOrder ? known.filter((e) => !((settledAt.get(e.operationId) ?? Infinity) < entry.sequence)) : known;
      onTarget.set(target, [...earlier, entry]);
      const at = admittedAt(entry.operationId);
      const busy = earlier.find((e) => {
        const settled = settledAt.get(e.operationId);
        const since = admittedAt(e.operationId);
        const oneInstance =
          at !== undefined &&
          since !== undefined &&
          !crashBetween(facts.crashes, Math.min(at, since), Math.max(at, since)) &&
          !crashedBetween(e.sequence, entry.sequence);
        // Unsettled at Lomi when the next came: settled after it, or never (a dispatch Lomi still holds).
        return oneInstance && (settled === undefined || settled > entry.sequence);
      });
      if (busy) {
        const index = (e: Dispatch) => facts.ledgerAt.get(e.sequence);
        found.push({
          message: `Lomi received ${entry.tool} ${entry.operationId} (ledger entry ${entry.sequence}) while ${busy.tool} ${busy.operationId} on the same target (${String(entry.detail.args[(contractOf(entry.tool) as OperationContract).serializeOn])}) was dispatched and not yet settled (${settledAt.has(busy.operationId) ? `Lomi settled it at entry ${settledAt.get(busy.operationId)}` : "Lomi never settled it"}): it should have waited queued`,
          records: [index(busy), index(entry)].filter((i): i is number => i !== undefined),
          rules: ["SERIAL-01"],
        });
      }
    }
    return found;
  },
  /** Each operation Lomi received on a target another operation of the same broker instance had been dispatched on before: what had to wait its turn. */
  triggers(facts) {
    const tally = new Tally();
    const before = new Map<string, number[]>();
    for (const entry of (facts.history.ledger ?? []).filter(ofKind("dispatch"))) {
      const target = targetOf(entry);
      const at = facts.owners.get(entry.operationId)?.index;
      if (target === undefined || at === undefined) continue;
      const earlier = before.get(target) ?? [];
      if (earlier.some((since) => !crashBetween(facts.crashes, Math.min(at, since), Math.max(at, since)))) tally.add("SERIAL-01");
      before.set(target, [...earlier, at]);
    }
    return tally.triggers;
  },
};
