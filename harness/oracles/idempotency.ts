import { RETRY_EPOCH_VALIDITY_MS } from "../../protocol/tools/workspace.js";
import { admissionOf, isOperationTool, type IndexedCall } from "../history/replies.js";
import { canonical } from "../text/canonical-json.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { crashBetween } from "./finding-rules.js";

const IDENTITY_FIELDS = new Set(["retryEpoch", "requestKey"]);
/** Refusals a broker may give before it looks a retry identity up (shape, pairing, a store or Lomi that is down). */
export const BEFORE_IDENTITY = new Set([
  "INVALID_ARGUMENT",
  "PAIRING_REQUIRED",
  "PAIRING_DENIED",
  "WORKSPACE_NOT_APPROVED",
  "PROJECT_REQUIRED",
  "STORE_UNAVAILABLE",
  "NATIVE_UNAVAILABLE",
]);

/** The retry identity as the client can see it; a call that names no projectId is its own identity (lenient, never wrong). */
export const identityOf = (c: IndexedCall) =>
  [c.agent, c.args.retryEpoch, c.args.workspaceId, c.args.projectId ?? "", c.tool, c.args.requestKey].map((v) => String(v)).join("\u0000");
export const payloadOf = (c: IndexedCall) => canonical(Object.fromEntries(Object.entries(c.args).filter(([k]) => !IDENTITY_FIELDS.has(k))));

/**
 * The epoch rule a retry's refusal for its epoch contradicts: a retry needs no new authority, so past
 * the epoch's 24 hours it still returns its operation (EPOCH-03), and after a restart the epoch still
 * finds its own receipts (EPOCH-01).
 */
function epochRefusalRules(code: string, acrossCrash: boolean): string[] {
  if (code === "RETRY_EPOCH_EXPIRED") return ["EPOCH-03"];
  return code === "RETRY_EPOCH_INVALID" && acrossCrash ? ["EPOCH-01"] : [];
}

/**
 * Once an identity has an operation, the same arguments return that operation and never conflict,
 * and changed arguments answer IDEMPOTENCY_CONFLICT, never an operation.
 */
export const idempotency: Oracle = {
  id: "idempotency",
  rules: ["IDEM-01", "IDEM-02", "DUR-03", "EPOCH-01", "EPOCH-03"],
  title: "IDEMPOTENCY_CONFLICT exactly when the arguments differ; a retry returns the prior operation",
  needsLedger: false,
  check({ calls, crashes }) {
    const found: Violation[] = [];
    const first = new Map<string, { call: IndexedCall; operationId: string; payload: string }>();
    for (const c of calls) {
      if (!isOperationTool(c.tool) || typeof c.args.requestKey !== "string") continue;
      const key = identityOf(c);
      const prior = first.get(key);
      const admission = admissionOf(c);
      const code = c.envelope?.status === "error" ? c.envelope.code : undefined;
      if (!prior) {
        if (admission) first.set(key, { call: c, operationId: admission.receipt.operationId, payload: payloadOf(c) });
        continue;
      }
      const same = payloadOf(c) === prior.payload;
      const at = [prior.call.index, c.index];
      // A retry across a restart is DUR-03's as well as IDEM-01's.
      const retried = crashBetween(crashes, prior.call.index, c.index) ? ["IDEM-01", "DUR-03"] : ["IDEM-01"];
      if (same && admission && admission.receipt.operationId !== prior.operationId) {
        found.push({
          message: `a retry of ${c.tool} "${c.args.requestKey}" with the same arguments made another operation (${admission.receipt.operationId}, the first was ${prior.operationId})`,
          records: at,
          rules: retried,
        });
      } else if (same && code !== undefined && !BEFORE_IDENTITY.has(code)) {
        found.push({
          message: `a retry of ${c.tool} "${c.args.requestKey}" with the same arguments answered ${code}; it must return the prior operation ${prior.operationId}`,
          records: at,
          rules: [...retried, ...epochRefusalRules(code, crashBetween(crashes, prior.call.index, c.index))],
        });
      } else if (!same && admission) {
        const what =
          admission.receipt.operationId === prior.operationId
            ? `returned the prior operation ${prior.operationId}`
            : `made another operation ${admission.receipt.operationId}`;
        found.push({
          message: `${c.tool} "${c.args.requestKey}" with changed arguments ${what}; it must answer IDEMPOTENCY_CONFLICT`,
          records: at,
          rules: ["IDEM-02"],
        });
      } else if (!same && code !== undefined && code !== "IDEMPOTENCY_CONFLICT" && !BEFORE_IDENTITY.has(code)) {
        found.push({
          message: `${c.tool} "${c.args.requestKey}" with changed arguments answered ${code}; it must answer IDEMPOTENCY_CONFLICT`,
          records: at,
          rules: ["IDEM-02"],
        });
      }
    }
    return found;
  },
  /** Each call under an identity that already has an operation: the same arguments (IDEM-01; DUR-03 and EPOCH-01 across a crash, EPOCH-03 past its epoch's 24 hours) or changed ones (IDEM-02). */
  triggers({ calls, crashes }) {
    const tally = new Tally();
    const first = new Map<string, { index: number; payload: string; at: number }>();
    for (const c of calls) {
      if (!isOperationTool(c.tool) || typeof c.args.requestKey !== "string") continue;
      const prior = first.get(identityOf(c));
      if (!prior) {
        if (admissionOf(c)) first.set(identityOf(c), { index: c.index, payload: payloadOf(c), at: Date.parse(c.answeredAt) });
        continue;
      }
      if (payloadOf(c) !== prior.payload) {
        tally.add("IDEM-02");
        continue;
      }
      const acrossCrash = crashBetween(crashes, prior.index, c.index);
      // Over 24 hours after its admission, its epoch has expired: the retry still needs its operation (EPOCH-03).
      const expired = Date.parse(c.sentAt) - prior.at > RETRY_EPOCH_VALIDITY_MS;
      tally.add(["IDEM-01", ...(acrossCrash ? ["DUR-03", "EPOCH-01"] : []), ...(expired ? ["EPOCH-03"] : [])]);
    }
    return tally.triggers;
  },
};
