import { contractOf } from "../../protocol/catalogue.js";
import { RETRY_EPOCH_VALIDITY_MS } from "../../protocol/tools/workspace.js";
import type { FaultRecord } from "../history/format.js";
import { admissionOf, isObject, receiptIn, type IndexedCall } from "../history/replies.js";
import { crashBetween, isOrderedInput, lostInputs, orderedInputRules, revisionRuleOf, sentSequenceRule } from "./finding-rules.js";
import { identityOf } from "./idempotency.js";

// A refusal a step did not expect (the scenario needed the request taken) is a finding about that
// refusal: it fails the rule whose wording the refusal contradicts where the history shows it
// (a revision the agent was last told called stale, the next inputSequence called a gap, a fresh
// epoch called invalid…), and no rule where it does not — the gate still fails, naming the answer.
// docs/spec.md, "What each finding blames", is this file in words.

/** What a refusal is judged against: the calls before it, the broker's crashes, and what the harness did to Lomi. */
export interface RefusalContext {
  calls: readonly IndexedCall[];
  crashes: readonly number[];
  faults: ReadonlyArray<FaultRecord & { index: number }>;
}

/** Faults after which an observation may be stale without the agent being told. */
const MOVES_THE_WORLD = new Set(["layout-change", "runtime-restart", "world-change", "world-reset"]);

/** Where a field's current value shows in an ok reply's data: the observed field, and the field of the target it belongs to. */
const SHOWN_AS: Readonly<Record<string, { field: string; target: string[] }>> = {
  expectedRevision: { field: "domainRevision", target: ["workspaceId"] },
  expectedDiskRevision: { field: "diskRevision", target: ["path"] },
  expectedBufferRevision: { field: "bufferRevision", target: ["documentId"] },
  expectedSettingsRevision: { field: "settingsRevision", target: ["section"] },
  expectedConversationRevision: { field: "conversationRevision", target: ["conversationId"] },
  expectedDraftRevision: { field: "draftRevision", target: ["conversationId"] },
  terminalSessionId: { field: "terminalSessionId", target: ["panelId"] },
  browserGeneration: { field: "browserGeneration", target: ["panelId"] },
  generation: { field: "generation", target: ["panelId"] },
};

/** Every object at any depth of a value, with the key it sits under (a settings section's name): where an observation may be in a reply's data. */
function objectsIn(
  value: unknown,
  under?: string,
  into: Array<{ o: Record<string, unknown>; under: string | undefined }> = [],
): Array<{ o: Record<string, unknown>; under: string | undefined }> {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, undefined, into);
  else if (isObject(value)) {
    into.push({ o: value, under });
    for (const [k, v] of Object.entries(value)) objectsIn(v, k, into);
  }
  return into;
}

/**
 * The value of `sent` the agents were last shown for the call's target, and where: the latest ok
 * reply whose data holds the observed field for an object of the same target (by the target fields
 * both carry). Undefined when none shows it.
 */
function lastShown(ctx: RefusalContext, call: IndexedCall, sent: string): { value: unknown; index: number } | undefined {
  const shown = SHOWN_AS[sent];
  if (!shown) return undefined;
  for (let i = ctx.calls.length - 1; i >= 0; i--) {
    const c = ctx.calls[i]!;
    if (c.index >= call.index || c.envelope?.status !== "ok") continue;
    const context = { ...c.args, ...c.envelope.data };
    for (const { o, under } of objectsIn(c.envelope.data).reverse()) {
      if (!(shown.field in o)) continue;
      const sameTarget = shown.target.every(
        (t) => call.args[t] === undefined || (o[t] ?? (t === "section" ? under : undefined) ?? context[t]) === call.args[t],
      );
      if (sameTarget) return { value: o[shown.field], index: c.index };
    }
  }
  return undefined;
}

/** A revision or runtime identity the agent sent as it was last shown, with nothing since that could have moved it unseen. */
function sentAsLastShown(ctx: RefusalContext, call: IndexedCall, fields: readonly string[]): string | undefined {
  return fields.find((f) => {
    const shown = lastShown(ctx, call, f);
    if (!shown || shown.value !== call.args[f]) return false;
    const moved = ctx.faults.some((x) => x.index > shown.index && x.index < call.index && MOVES_THE_WORLD.has(x.kind));
    return !moved && !crashBetween(ctx.crashes, shown.index, call.index);
  });
}

/** The lomi_connect on this connection that gave the call's retry epoch, if one did since the last crash. */
function epochGiven(ctx: RefusalContext, call: IndexedCall): IndexedCall | undefined {
  return ctx.calls.find(
    (c) =>
      c.index < call.index &&
      c.tool === "lomi_connect" &&
      c.connection === call.connection &&
      c.envelope?.status === "ok" &&
      c.envelope.data.retryEpoch === call.args.retryEpoch &&
      !crashBetween(ctx.crashes, c.index, call.index),
  );
}

/** The reply that gave the agent the lease it sent: a lease acquired, or a terminal it created. */
function leaseGrant(ctx: RefusalContext, call: IndexedCall): IndexedCall | undefined {
  const leaseId = call.args.leaseId;
  return ctx.calls.find(
    (c) => c.index < call.index && c.agent === call.agent && c.envelope?.status === "ok" && objectsIn(c.envelope.data).some(({ o }) => o.leaseId === leaseId),
  );
}

/** Whether a grant is a terminal create's confirmed result: the lease OP-05 says to keep from it. */
function grantedByCreatedTerminal(grant: IndexedCall): boolean {
  const receipt = receiptIn(grant);
  return receipt?.tool === "lomi_terminal_create" && receipt.state === "succeeded";
}

/** The reply that granted the lease the agent sent, where the agent still holds it: neither taken over nor outlived by a crash since. */
function heldGrant(ctx: RefusalContext, call: IndexedCall): IndexedCall | undefined {
  const grant = leaseGrant(ctx, call);
  if (!grant || crashBetween(ctx.crashes, grant.index, call.index)) return undefined;
  const takenOver = ctx.calls.some(
    (c) =>
      c.index > grant.index &&
      c.index < call.index &&
      c.tool === "lomi_lease_acquire" &&
      c.envelope?.status === "ok" &&
      c.envelope.data.leaseId !== call.args.leaseId,
  );
  const restarted = ctx.faults.some((x) => x.index > grant.index && x.index < call.index && x.kind === "runtime-restart");
  return takenOver || restarted ? undefined : grant;
}

/**
 * What a refusal of ordered input contradicts: a retry of an input this broker instance acknowledged
 * with the same payload is acknowledged again, by its sequence (INPUT-03) and even after its lease
 * expired (INPUT-18); the lease's next sequence, under a lease the agent holds, is sent once
 * (INPUT-02), after an input whose reply was lost too (INPUT-19: the next sequence goes on).
 */
function inputRefusalRules(ctx: RefusalContext, call: IndexedCall, code: string): string[] {
  const rule = sentSequenceRule(ctx.calls, call);
  if (rule === "INPUT-03") {
    const acknowledged = ctx.calls.find(
      (c) =>
        c.index < call.index &&
        c.tool === call.tool &&
        c.envelope?.status === "ok" &&
        c.args.leaseId === call.args.leaseId &&
        c.args.inputSequence === call.args.inputSequence,
    );
    // After a restart the history is gone with the lease (INPUT-11): the refusal is right.
    if (!acknowledged || crashBetween(ctx.crashes, acknowledged.index, call.index)) return [];
    return code.startsWith("LEASE_") ? ["INPUT-18"] : ["INPUT-03"];
  }
  const grant = rule === "INPUT-02" ? heldGrant(ctx, call) : undefined;
  if (!grant) return [];
  const afterLost = lostInputs(ctx.calls, call).some((c) => Number(c.args.inputSequence) === Number(call.args.inputSequence) - 1);
  // A lease from a terminal's confirmed result that grants nothing is also the lease OP-05 says to keep from it.
  const fromCreate = grantedByCreatedTerminal(grant);
  return ["INPUT-02", ...(afterLost ? ["INPUT-19"] : []), ...(fromCreate ? ["OP-05"] : [])];
}

/** The candidate rules a refusal contradicts, by what the history shows of the request it refused. */
function contradicted(ctx: RefusalContext, call: IndexedCall, code: string): string[] {
  const before = ctx.calls.filter((c) => c.index < call.index);
  switch (code) {
    case "REVISION_CONFLICT":
    case "STALE_RUNTIME": {
      const fields = Object.keys(SHOWN_AS).filter((f) => f in call.args && f.startsWith("expected") === (code === "REVISION_CONFLICT"));
      const field = sentAsLastShown(ctx, call, fields);
      const rule = field && revisionRuleOf(call.tool, field);
      return rule ? [rule] : [];
    }
    case "INPUT_SEQUENCE_GAP":
    case "INPUT_SEQUENCE_CONFLICT":
    case "LEASE_REQUIRED":
    case "LEASE_EXPIRED": {
      const rules = isOrderedInput(call.tool) ? inputRefusalRules(ctx, call, code) : [];
      return rules.length > 0 ? orderedInputRules(call.tool, rules) : [];
    }
    case "RETRY_EPOCH_INVALID":
    case "RETRY_EPOCH_EXPIRED": {
      const given = epochGiven(ctx, call);
      return given && Date.parse(call.sentAt) - Date.parse(given.answeredAt) < RETRY_EPOCH_VALIDITY_MS ? ["EPOCH-02"] : [];
    }
    case "IDEMPOTENCY_CONFLICT": {
      if (!(contractOf(call.tool)?.kind === "operation")) return [];
      const identity = identityOf(call);
      if (before.some((c) => identityOf(c) === identity && c.envelope?.status === "ok")) return [];
      // The key named an operation only under another tool, epoch or project: another identity.
      return before.some((c) => admissionOf(c) && c.agent === call.agent && c.args.requestKey === call.args.requestKey) ? ["IDEM-04"] : [];
    }
    case "PAIRING_REQUIRED":
      // A pairing that was answered ok before was approved: nothing makes it pending again but a new session.
      return before.some((c) => c.agent === call.agent && c.connection === call.connection && c.envelope?.status === "ok") ? ["AUTH-01"] : [];
    case "WORKSPACE_NOT_APPROVED":
      return before.some(
        (c) => c.agent === call.agent && c.tool === "lomi_connect" && c.envelope?.status === "ok" && c.args.workspaceId === call.args.workspaceId,
      )
        ? ["AUTH-04"]
        : [];
    case "NOT_FOUND": {
      // A receipt of the pairing's own, asked for by the operationId it was given.
      const id = call.args.operationId;
      return typeof id === "string" && before.some((c) => c.agent === call.agent && admissionOf(c)?.receipt.operationId === id) ? ["IDEM-05"] : [];
    }
    default:
      return [];
  }
}

/**
 * The rules a refusal contradicts, of a request the scenario needed taken: the cited ones among the
 * candidates when there are any, else the candidates; none when the history shows no rule it breaks.
 */
export function refusalRulesFromHistory(ctx: RefusalContext, call: IndexedCall, cited: readonly string[]): string[] {
  if (call.envelope?.status !== "error") return [];
  const candidates = contradicted(ctx, call, call.envelope.code);
  const mine = candidates.filter((id) => cited.includes(id));
  return mine.length > 0 ? mine : candidates;
}
