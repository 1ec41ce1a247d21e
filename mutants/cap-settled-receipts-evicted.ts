import { buildToolResult, errorOf } from "../protocol/envelope.js";
import { isOneOf } from "../protocol/closed-lists.js";
import { LomiError } from "../protocol/errors.js";
import { SETTLED_STATES } from "../protocol/states.js";
import type { BrokerCore } from "../reference-broker/broker.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

/** How many reads each broker instance has answered with each operation settled. */
const settledReads = new WeakMap<BrokerCore, Map<string, number>>();
/** Reads after which a settled receipt is gone: a read-through cache taken for the store. */
const KEPT_FOR_READS = 4;

/** The operation a read answered, when it is settled. */
function settledIn(reply: Parameters<typeof okDataOf>[0]): { operationId: string; state: string } | undefined {
  const op = okDataOf(reply)?.operation as { operationId: string; state: string } | undefined;
  return op && isOneOf(SETTLED_STATES, op.state) ? op : undefined;
}

export const capSettledReceiptsEvicted: Mutant = {
  name: "cap-settled-receipts-evicted",
  family: "CAP",
  breaks: ["CAP-03", "IDEM-05"],
  defect: `a settled receipt is evicted once it has been read settled ${KEPT_FOR_READS} times: the next read answers NOT_FOUND, without any deliberate reconciliation`,
  oracle: "receipts-readable",
  stepsBlind: true,
  // Scenarios that read a settled operation 4 times: the end-of-scenario read is the fifth.
  shownBy: "@ENV-11 or @INPUT-17",
  parts: {
    // It counts, and answers, only reads of a settled operation.
    session: sessionRewritingPicked(
      ({ tool, reply }) => ["lomi_operation_get", "lomi_operation_lookup"].includes(tool) && settledIn(reply) !== undefined,
      (reply, _name, _args, { core }) => {
        const op = settledIn(reply)!;
        const reads = settledReads.get(core) ?? (settledReads.set(core, new Map()), settledReads.get(core)!);
        const n = (reads.get(op.operationId) ?? 0) + 1;
        reads.set(op.operationId, n);
        return n > KEPT_FOR_READS ? buildToolResult(errorOf(new LomiError("NOT_FOUND", `No operation ${op.operationId}.`, { field: "operationId" }))) : reply;
      },
    ),
  },
};
