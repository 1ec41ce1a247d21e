import { contractOf } from "../../protocol/catalogue.js";
import { ofKind, type LedgerEntry, type LedgerEntryOf } from "../../protocol/control-api.js";
import { type Facts } from "./facts.js";
import { admissionOf, type IndexedCall } from "../history/replies.js";
import { canonical } from "../text/canonical-json.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import {
  CANNOT_UNDO_RULES,
  cannotUndoRule,
  CHANGED_FIELD_RULES,
  changedFieldRules,
  crashBetween,
  INPUT_RULES,
  inputRules,
  isOrderedInput,
  orderedInputRules,
  PROTOTYPE_KEYS,
  REFUSAL_RULES,
  refusalRules,
  sentSequenceRule,
} from "./finding-rules.js";

// Oracles that start from what Lomi really did (its ledger) and ask which request of an agent's
// each effect answers: no native work without a request, none twice, none for a refusal.

/** Fields Lomi's copy of the arguments may carry differently (docs/native-bridge.md: the anchor project is explicit there). */
const IDENTITY = new Set(["retryEpoch", "requestKey", "workspaceId", "projectId"]);

type Dispatch = LedgerEntryOf<"dispatch">;
const argsOf = (e: Dispatch) => e.detail.args;

/** The request identity a dispatch answers, as the agent wrote it: the retry identity, or the lease and sequence of ordered input. */
const identityOf = (tool: string, args: Record<string, unknown>) =>
  isOrderedInput(tool)
    ? `${tool}\u0000${String(args.leaseId)}\u0000${String(args.inputSequence)}`
    : `${tool}\u0000${String(args.retryEpoch)}\u0000${String(args.requestKey)}`;

/** A field the agent sent otherwise than Lomi received it, and the rules that breaks. */
type Change = { field: string; text: string; rules: string[] };

/**
 * The rules of a field Lomi received otherwise than the call sent it: a request its tool's schema
 * refuses was to be refused, not amended and sent (a setting of another section dropped: that
 * refusal's rule); any other, the field's own.
 */
const changeRules = (call: IndexedCall, field: string) =>
  contractOf(call.tool)?.input.safeParse(call.args).success === false ? inputRules(call.tool, call.args) : changedFieldRules(call.tool, field);

/**
 * The first field the call sent otherwise than Lomi received it (other than the identity), or
 * undefined: sent as received. A prototype key the agent sent counts even when Lomi's copy has none
 * of its own (an object copy drops it): arguments are judged as sent.
 */
function changedField(call: IndexedCall, received: Record<string, unknown>, ignored: readonly string[] = []): Change | undefined {
  const has = (f: string) => Object.hasOwn(received, f);
  const field = Object.keys(call.args).find(
    (f) =>
      !IDENTITY.has(f) && !ignored.includes(f) && (has(f) || PROTOTYPE_KEYS.has(f)) && canonical(has(f) ? received[f] : undefined) !== canonical(call.args[f]),
  );
  return field === undefined
    ? undefined
    : {
        field,
        text: `${field}: the agent sent ${canonical(call.args[field])}, Lomi received ${has(field) ? canonical(received[field]) : "no such field"}`,
        rules: changeRules(call, field),
      };
}

type Traced = { entry: Dispatch; agent: string | undefined; calls: IndexedCall[]; changed: Change[] };

/** Both oracles of this file read the same tracing of a history: it is made once. */
const tracings = new WeakMap<Facts, Traced[]>();

/** Each native dispatch with the agents' calls that asked for it (by identity and arguments), and those of its identity that sent other arguments. */
function traced(facts: Facts): Traced[] {
  const known = tracings.get(facts);
  if (known) return known;
  const byIdentity = new Map<string, IndexedCall[]>();
  for (const c of facts.calls) {
    const key = `${c.agent}\u0000${identityOf(c.tool, c.args)}`;
    const same = byIdentity.get(key);
    if (same) same.push(c);
    else byIdentity.set(key, [c]);
  }
  // The admissions that named each operation: Lomi's dispatch carries its operationId in the permit.
  const admitted = new Map<string, IndexedCall[]>();
  for (const c of facts.calls) {
    const id = admissionOf(c)?.receipt.operationId;
    if (id !== undefined) admitted.set(id, [...(admitted.get(id) ?? []), c]);
  }
  const found = (facts.history.ledger ?? []).filter(ofKind("dispatch")).map((entry) => {
    const agent = facts.history.pairings.get(entry.pairingId);
    const received = argsOf(entry);
    // By the retry identity Lomi received; else by the operation the agent's reply named, under the
    // epoch the agent sent (a request key of the broker's own making is the identity Lomi ignores) —
    // unless a restart came between that admission and Lomi receiving it: work resumed by a later
    // instance is DUR-01's, and a key the agent never sent is its sign.
    const byKey = byIdentity.get(`${agent}\u0000${identityOf(entry.tool, received)}`) ?? [];
    const resumed = (c: IndexedCall) =>
      facts.faults.some(
        (f) => f.kind === "broker-crash" && f.index > c.index && !(typeof f.detail.ledgerSequence === "number" && f.detail.ledgerSequence >= entry.sequence),
      );
    const named = entry.detail.permit
      ? (admitted.get(entry.detail.permit.operationId) ?? []).filter(
          (c) => c.agent === agent && c.tool === entry.tool && c.args.retryEpoch === received.retryEpoch && !resumed(c),
        )
      : [];
    const same = byKey.length > 0 ? byKey : named;
    const changes = same.map((c) => changedField(c, received));
    return { entry, agent, calls: same.filter((_, i) => changes[i] === undefined), changed: changes.filter((c): c is Change => c !== undefined) };
  });
  tracings.set(facts, found);
  return found;
}

/**
 * The agent's call a dispatch answers but for its retry epoch (a broker that swapped a stale epoch
 * for a fresh one), and the rule that epoch's staleness breaks: from a crashed instance EPOCH-01,
 * from another connection EPOCH-04, past its 24 hours EPOCH-03.
 */
function underAnotherEpoch(facts: Facts, agent: string | undefined, entry: Dispatch): { call: IndexedCall; rule: string } | undefined {
  if (isOrderedInput(entry.tool)) return undefined;
  const received = argsOf(entry);
  const call = facts.calls.find(
    (c) =>
      c.agent === agent &&
      c.tool === entry.tool &&
      c.args.requestKey === received.requestKey &&
      c.args.retryEpoch !== received.retryEpoch &&
      changedField(c, received) === undefined,
  );
  if (!call) return undefined;
  const given = facts.calls.find((c) => c.tool === "lomi_connect" && c.envelope?.status === "ok" && c.envelope.data.retryEpoch === call.args.retryEpoch);
  const rule =
    given && crashBetween(facts.crashes, given.index, call.index) ? "EPOCH-01" : given && given.connection !== call.connection ? "EPOCH-04" : "EPOCH-03";
  return { call, rule };
}

/**
 * The agent's input a dispatch carries under another sequence than it sent (a broker that numbers
 * input itself), and the rule the sequence the agent sent should have met: one already acknowledged
 * with the same payload INPUT-03, with another INPUT-04; one ahead of the next INPUT-05.
 */
function underAnotherSequence(facts: Facts, agent: string | undefined, entry: Dispatch): { call: IndexedCall; rules: string[] } | undefined {
  if (!isOrderedInput(entry.tool)) return undefined;
  const received = argsOf(entry);
  const candidates = facts.calls.filter(
    (c) =>
      c.agent === agent &&
      c.tool === entry.tool &&
      c.args.leaseId === received.leaseId &&
      c.args.inputSequence !== received.inputSequence &&
      changedField(c, received, ["inputSequence"]) === undefined,
  );
  // The call whose acknowledgement names the sequence Lomi received, else the last that could be it.
  const call = candidates.find((c) => c.envelope?.status === "ok" && c.envelope.data.inputSequence === received.inputSequence) ?? candidates.at(-1);
  return call && { call, rules: orderedInputRules(call.tool, [sentSequenceRule(facts.calls, call)]) };
}

/**
 * The cancel an unrequested dispatch answers, when it undoes what a cancel found done: the agent
 * cancelled an operation of the same tool in the same workspace before it, and was told it had
 * settled with effects. Its rules: cancel never undoes a completed effect (CANCEL-03, where the
 * cancel answered already_settled) and the rule of that tool's effect (cannotUndoRule).
 */
function undoOfCancel(facts: Facts, agent: string | undefined, entry: Dispatch): { call: IndexedCall; rules: string[] } | undefined {
  const index = at(facts, entry)[0] ?? Infinity;
  const call = facts.calls
    .filter((c) => {
      if (c.agent !== agent || c.tool !== "lomi_operation_cancel" || c.index > index || c.envelope?.status !== "ok") return false;
      const cancelled = c.envelope.data.operation as Record<string, unknown> | undefined;
      return cancelled?.tool === entry.tool && cancelled.workspaceId === argsOf(entry).workspaceId && cancelled.effectState !== "none";
    })
    .at(-1);
  if (!call || call.envelope?.status !== "ok") return undefined;
  return { call, rules: [...(call.envelope.data.outcome === "already_settled" ? ["CANCEL-03"] : []), cannotUndoRule(entry.tool)] };
}

const describe = (e: LedgerEntry) => `${e.tool} ${e.operationId} (ledger entry ${e.sequence})`;
/** The history record of a ledger entry, for the violation to show. */
const at = (facts: Facts, e: LedgerEntry) => {
  const index = facts.ledgerAt.get(e.sequence);
  return index === undefined ? [] : [index];
};

/**
 * Every native effect traces to a request an agent sent: Lomi's dispatch carries the retry identity
 * (or the lease and input sequence) and the arguments of a call of the pairing's agent, nothing
 * rebased, renumbered or swapped on the way; and one request is dispatched as one operation, across
 * restarts. A broker that does work on its own (a "resume" after a restart, a request it made up)
 * is seen here whatever its steps' counts say.
 */
export const effectsRequested: Oracle = {
  id: "effects-requested",
  rules: [
    "DUR-01",
    "DUR-03",
    "DUR-06",
    "IDEM-01",
    "EPOCH-01",
    "EPOCH-03",
    "EPOCH-04",
    "INPUT-03",
    "INPUT-04",
    "INPUT-05",
    "INPUT-16",
    "CANCEL-03",
    ...CANNOT_UNDO_RULES,
    ...new Set([...CHANGED_FIELD_RULES, ...INPUT_RULES]),
  ],
  title: "every native effect traces to one request an agent sent, as sent, and none is done twice",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    const operations = new Map<string, Set<string>>();
    for (const { entry, agent, calls, changed } of traced(facts)) {
      if (calls.length === 0 && changed.length > 0) {
        found.push({
          message: `Lomi received ${describe(entry)} otherwise than the agent sent it: ${changed[0]!.text}`,
          records: at(facts, entry),
          rules: changed[0]!.rules,
        });
        continue;
      }
      const renumbered = calls.length === 0 ? underAnotherSequence(facts, agent, entry) : undefined;
      if (renumbered) {
        found.push({
          message: `Lomi received ${describe(entry)} as inputSequence ${String(argsOf(entry).inputSequence)}, while the agent sent it as ${String(renumbered.call.args.inputSequence)}: the broker renumbered input`,
          records: [renumbered.call.index, ...at(facts, entry)],
          rules: renumbered.rules,
        });
        continue;
      }
      const renewed = calls.length === 0 ? underAnotherEpoch(facts, agent, entry) : undefined;
      if (renewed) {
        found.push({
          message: `Lomi received ${describe(entry)} under retryEpoch ${String(argsOf(entry).retryEpoch)}, while the agent sent it under ${String(renewed.call.args.retryEpoch)}: the broker renewed an epoch that granted no new submission`,
          records: [renewed.call.index, ...at(facts, entry)],
          rules: [renewed.rule],
        });
        continue;
      }
      // A dispatch under a pairing this history never made is another run's (a broker at a URL serves every scenario): not judged here.
      if (calls.length === 0 && agent === undefined) continue;
      const undo = calls.length === 0 ? undoOfCancel(facts, agent, entry) : undefined;
      if (undo) {
        found.push({
          message: `Lomi did work no agent asked for right after ${agent ?? "the agent"} cancelled an operation of ${entry.tool} that had settled with effects: ${describe(entry)} undoes what the cancel found done`,
          records: [undo.call.index, ...at(facts, entry)],
          rules: undo.rules,
        });
        continue;
      }
      if (calls.length === 0) {
        const sent = isOrderedInput(entry.tool)
          ? `lease ${String(argsOf(entry).leaseId)}, inputSequence ${String(argsOf(entry).inputSequence)}`
          : `retryEpoch ${String(argsOf(entry).retryEpoch)}, requestKey ${String(argsOf(entry).requestKey)}`;
        // Work resumed or made up after a restart breaks "nothing is dispatched again" (DUR-01); without one, a receipt reserved for a request before its dispatch (DUR-06).
        found.push({
          message: `Lomi did work no agent asked for: ${describe(entry)} under ${sent}, which no call of ${agent ?? `pairing ${entry.pairingId}`} sent with those arguments`,
          records: at(facts, entry),
          rules: [facts.crashes.length > 0 ? "DUR-01" : "DUR-06"],
        });
        continue;
      }
      if (isOrderedInput(entry.tool)) continue; // ordered input twice is the input oracles' business
      const key = `${agent}\u0000${identityOf(entry.tool, argsOf(entry))}`;
      const ids = operations.get(key) ?? new Set();
      ids.add(entry.operationId);
      operations.set(key, ids);
      if (ids.size !== 2) continue;
      const retried = crashBetween(facts.crashes, calls[0]!.index, at(facts, entry)[0] ?? Infinity) ? ["IDEM-01", "DUR-03"] : ["IDEM-01"];
      found.push({
        message: `one request was dispatched as two operations (${[...ids].join(", ")}): ${entry.tool} requestKey ${String(argsOf(entry).requestKey)}`,
        records: [calls[0]!.index, ...at(facts, entry)],
        rules: retried,
      });
    }
    return found;
  },
  /**
   * Each dispatch of a pairing this history made: that someone asked for it (DUR-06, DUR-01 after a
   * restart); each field of the request it answers, as sent (that field's rule); a request sent more
   * than once, dispatched once (IDEM-01, DUR-03 after a restart); ordered input, under the sequence
   * sent. Each cancel of an operation with effects: none undone (CANCEL-03 once settled, the tool's own rule).
   */
  triggers(facts) {
    const tally = new Tally();
    for (const { entry, agent, calls } of traced(facts)) {
      if (agent === undefined) continue;
      const restarted = facts.crashes.length > 0;
      tally.add(restarted ? "DUR-01" : "DUR-06");
      const call = calls[0];
      if (!call) continue;
      for (const field of Object.keys(call.args).filter((f) => !IDENTITY.has(f))) tally.add(changedFieldRules(entry.tool, field));
      if (isOrderedInput(entry.tool)) tally.add(orderedInputRules(entry.tool, [sentSequenceRule(facts.calls, call)]));
      else if (calls.length > 1) tally.add(restarted ? ["IDEM-01", "DUR-03"] : "IDEM-01");
    }
    // Each cancel of an operation that had effects: nothing may be dispatched to undo them.
    for (const c of facts.calls) {
      const cancelled =
        c.tool === "lomi_operation_cancel" && c.envelope?.status === "ok" ? (c.envelope.data.operation as Record<string, unknown> | undefined) : undefined;
      if (cancelled && cancelled.effectState !== "none")
        tally.add([
          ...(c.envelope?.status === "ok" && c.envelope.data.outcome === "already_settled" ? ["CANCEL-03"] : []),
          cannotUndoRule(String(cancelled.tool)),
        ]);
    }
    return tally.triggers;
  },
};

/** Refusals of a request the client may retry as it is: the broker could not look, so it may have been let through before. */
const NOT_A_REFUSAL = new Set(["NATIVE_UNAVAILABLE"]);

/**
 * Nothing is dispatched for a request the broker refused: a dispatch whose every request was
 * answered with an error envelope (none admitted, none whose reply was lost) is work done behind a
 * refusal. After a dispatch the outcome belongs in the operation's receipt, never in an error reply.
 */
export const refusalsDispatchNothing: Oracle = {
  id: "refusals-dispatch-nothing",
  rules: REFUSAL_RULES,
  title: "a request the broker refused was not dispatched",
  needsLedger: true,
  check(facts) {
    const found: Violation[] = [];
    for (const { entry, calls } of traced(facts)) {
      if (calls.length === 0) continue; // work no agent asked for: effects-requested says so
      const refused = calls.every((c) => c.envelope?.status === "error" && !NOT_A_REFUSAL.has(c.envelope.code));
      if (!refused) continue;
      const codes = [...new Set(calls.map((c) => (c.envelope?.status === "error" ? c.envelope.code : "?")))].join(", ");
      const first = calls[0]!;
      const rules = first.envelope?.status === "error" ? refusalRules(first.tool, first.envelope.code, first.args) : ["OP-03"];
      found.push({
        message: `Lomi received ${describe(entry)}, yet every call that sent that request was refused (${codes}): a refusal must leave nothing done`,
        records: [...calls.map((c) => c.index), ...at(facts, entry)],
        rules,
      });
    }
    return found;
  },
  /** Each refusal of a request to act (an operation or ordered input), under the rule whose "nothing is dispatched" it is. */
  triggers({ calls }) {
    const tally = new Tally();
    for (const c of calls) {
      const acts = isOrderedInput(c.tool) || contractOf(c.tool)?.kind === "operation";
      if (acts && c.envelope?.status === "error" && !NOT_A_REFUSAL.has(c.envelope.code)) tally.add(refusalRules(c.tool, c.envelope.code, c.args));
    }
    return tally.triggers;
  },
};
