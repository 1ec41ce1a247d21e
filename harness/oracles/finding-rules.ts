import { contractOf } from "../../protocol/catalogue.js";
import { isOneOf } from "../../protocol/closed-lists.js";
import { loadRules } from "../rules.js";
import { ORDERED_INPUT_NAMES, runtimeRef } from "../../protocol/tools/input.js";
import { type IndexedCall } from "../history/replies.js";
import { canonical } from "../text/canonical-json.js";

// Which rule a finding breaks, read from what was found (the field, the refusal code, the zod
// issue), never the whole list an oracle makes checkable: one defect fails the rules it breaks and
// no other. docs/explore.md, "What each finding blames", is this file in words.

/** Keys that name an object's machinery, not a field: SCH-06 makes each an unknown field. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
const COMMON_FIELDS = new Set(["retryEpoch", "requestKey"]);

export const isOrderedInput = (tool: string) => isOneOf(ORDERED_INPUT_NAMES, tool);
/** The file, directory and editor observations SCH-33 names. */
const isWorkspaceObservation = (tool: string) => /^lomi_(file|directory|editor)_/.test(tool) && contractOf(tool)?.kind === "observation";

/** The rules a tool's schema refusal of these arguments makes checkable (rejected-input's, refusals-dispatch-nothing's). */
export const INPUT_RULES = ["SCH-01", "SCH-02", "SCH-05", "SCH-06", "SCH-11", "SCH-31", "SCH-33", "SCH-41", "INPUT-07"];

/** Every field of a lease's runtime variants: one of another kind's in a runtime mixes the variants (SCH-11), it is no unknown field. */
const RUNTIME_FIELDS: ReadonlySet<string> = new Set(runtimeRef.options.flatMap((o) => Object.keys(o.shape)));

/**
 * The rule whose input a tool's schema refuses: a prototype key or arguments that are no object
 * SCH-06; a common field on a tool that declares none SCH-02 (and INPUT-07 / SCH-33 for the tools
 * those name); a lease runtime with another kind's field SCH-11; another unknown field SCH-01; a
 * union with not exactly one variant its own rule, as a settings change with no setting or one of
 * another section (SCH-41); a missing field or a wrong type SCH-05.
 */
export function inputRules(tool: string, args: unknown): string[] {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return ["SCH-06"];
  const keys = Object.keys(args);
  if (keys.some((k) => PROTOTYPE_KEYS.has(k))) return ["SCH-06"];
  const contract = contractOf(tool);
  const parsed = contract?.input.safeParse(args);
  if (!parsed || parsed.success) return [];
  const unknown = parsed.error.issues.flatMap((i) => (i.code === "unrecognized_keys" ? i.keys : []));
  if (unknown.length > 0) {
    const inRuntime = parsed.error.issues.every((i) => i.code !== "unrecognized_keys" || (i.path.length === 1 && i.path[0] === "runtime"));
    if (tool === "lomi_lease_acquire" && inRuntime && unknown.every((k) => RUNTIME_FIELDS.has(k))) return ["SCH-11"];
    if (!unknown.every((k) => COMMON_FIELDS.has(k))) return ["SCH-01"];
    return ["SCH-02", ...(isOrderedInput(tool) ? ["INPUT-07"] : []), ...(isWorkspaceObservation(tool) ? ["SCH-33"] : [])];
  }
  if (parsed.error.issues.some((i) => i.code === "invalid_union")) {
    if (tool === "lomi_file_write") return ["SCH-31"];
    if (tool === "lomi_lease_acquire") return ["SCH-11"];
    if (tool === "lomi_settings_update") return ["SCH-41"];
  }
  // The section's refinement (protocol/tools/settings.ts): values name no setting, or one of another section.
  if (tool === "lomi_settings_update" && parsed.error.issues.some((i) => i.code === "custom" && i.path[0] === "values")) return ["SCH-41"];
  return ["SCH-05"];
}

/** The revision or generation rule of a field, by the tool it was sent to: what a stale or rewritten one breaks. */
export function revisionRuleOf(tool: string, field: string): string | undefined {
  if (field === "expectedRevision") return tool === "lomi_browser_open" ? "REV-23" : "REV-01";
  const byField: Record<string, string> = {
    expectedDiskRevision: "REV-31",
    expectedBufferRevision: "REV-33",
    expectedParentRevision: "REV-35",
    expectedDirectoryRevision: "REV-35",
    expectedEntryRevision: "REV-35",
    expectedSettingsRevision: "REV-40",
    expectedDraftRevision: "REV-41",
    expectedConversationRevision: "REV-41",
    terminalSessionId: "REV-02",
    browserGeneration: "REV-20",
    generation: "REV-10",
  };
  return byField[field];
}

/**
 * The rule that says cancel cannot undo what a tool did ("It cannot undo a completed save, Git
 * change, upload, process start or provider send"): the tool's own where a rule names its effect,
 * else CANCEL-04's "cancelled does not mean rollback".
 */
export function cannotUndoRule(tool: string): string {
  const byTool: Record<string, string> = {
    lomi_browser_upload: "CANCEL-20",
    lomi_file_write: "CANCEL-30",
    lomi_workspace_close: "CANCEL-30",
    lomi_chat_send: "CANCEL-40",
    lomi_git_commit: "CANCEL-41",
    lomi_settings_update: "CANCEL-43",
    lomi_chat_draft_save: "CANCEL-43",
  };
  return byTool[tool] ?? "CANCEL-04";
}

/** Every rule cannotUndoRule answers: what the oracles that judge an undone effect make checkable. */
export const CANNOT_UNDO_RULES = ["CANCEL-04", "CANCEL-20", "CANCEL-30", "CANCEL-40", "CANCEL-41", "CANCEL-43"];

/** The rules the effects oracles make checkable for a dispatch that differs from its request. */
export const CHANGED_FIELD_RULES = [
  "SCH-06",
  "INPUT-02",
  "IDEM-03",
  "REV-32",
  "REV-01",
  "REV-02",
  "REV-10",
  "REV-20",
  "REV-23",
  "REV-31",
  "REV-33",
  "REV-35",
  "REV-40",
  "REV-41",
];

/**
 * The rule a dispatch breaks when Lomi received `field` otherwise than the agent sent it: a
 * revision rebased is that revision's rule; a lease or sequence renumbered INPUT-02; a prototype
 * key SCH-06 (judged as sent); a file write's content REV-32; any other field the payload IDEM-03 binds.
 */
export function changedFieldRules(tool: string, field: string): string[] {
  if (PROTOTYPE_KEYS.has(field)) return ["SCH-06"];
  if (field === "leaseId" || field === "inputSequence") return ["INPUT-02"];
  // The bytes of a file write reach the disk exactly as sent: CRLF and other encodings survive (REV-32).
  if (tool === "lomi_file_write" && field === "content") return ["REV-32"];
  const revision = revisionRuleOf(tool, field);
  return [revision ?? "IDEM-03"];
}

/** The rules refusals-dispatch-nothing makes checkable: each refusal's own "nothing is dispatched". */
export const REFUSAL_RULES = [
  ...INPUT_RULES,
  ...CHANGED_FIELD_RULES,
  "SCH-04",
  "AUTH-03",
  "AUTH-04",
  "CAP-01",
  "DUR-05",
  "EPOCH-03",
  "EPOCH-04",
  "INPUT-01",
  "INPUT-04",
  "INPUT-05",
  "INPUT-19",
  "OP-03",
  "IDEM-02",
];

/** The rule whose "nothing is dispatched" a refusal with this code breaks when Lomi received the request anyway. */
export function refusalRules(tool: string, code: string, args: Record<string, unknown>): string[] {
  switch (code) {
    case "INVALID_ARGUMENT": {
      const found = inputRules(tool, args);
      return found.length > 0 ? found : ["SCH-01"];
    }
    case "REVISION_CONFLICT":
    case "STALE_RUNTIME": {
      // A revision conflict is of an expected* revision, a stale runtime of a session or generation.
      const field = Object.keys(args).find((f) => f.startsWith("expected") === (code === "REVISION_CONFLICT") && revisionRuleOf(tool, f) !== undefined);
      return [field ? revisionRuleOf(tool, field)! : "REV-01"];
    }
    case "RESOURCE_EXHAUSTED":
      return ["CAP-01"];
    case "STORE_UNAVAILABLE":
      return ["DUR-05"];
    case "WORKSPACE_NOT_APPROVED":
      return ["AUTH-04"];
    case "NOT_FOUND":
      return ["AUTH-03"];
    case "RETRY_EPOCH_EXPIRED":
      return ["EPOCH-03"];
    case "RETRY_EPOCH_INVALID":
      return ["EPOCH-04"];
    case "IDEMPOTENCY_CONFLICT":
      return ["IDEM-02"];
    case "LEASE_REQUIRED":
      return ["INPUT-01"];
    case "INPUT_SEQUENCE_CONFLICT":
      return ["INPUT-04"];
    case "INPUT_SEQUENCE_GAP":
      return ["INPUT-05"];
    case "OUTSIDE_PROJECT":
    case "PERMISSION_DENIED":
    case "OUT_OF_RANGE":
    case "ALREADY_EXISTS":
      return ["SCH-04"];
    default:
      // After a dispatch the outcome belongs in the receipt, never in an error reply; input has no
      // receipt: one whose outcome the broker does not know answers NATIVE_UNAVAILABLE (INPUT-19).
      return isOrderedInput(tool) ? ["INPUT-19"] : ["OP-03"];
  }
}

/**
 * Refusals of a receipt read that say nothing about the receipt: the broker could not look right
 * now, or refused the reader (its pairing, its arguments, a key lookup that must name its project)
 * before looking.
 */
export const NOT_ABOUT_THE_RECEIPT: ReadonlySet<string> = new Set([
  "STORE_UNAVAILABLE",
  "NATIVE_UNAVAILABLE",
  "PAIRING_REQUIRED",
  "PAIRING_DENIED",
  "INVALID_ARGUMENT",
  "PROJECT_REQUIRED",
]);

/** A read of a receipt answered with an error that is the operation's own failure: a failure read as an error, OP-03's. */
export const failureReadAsError = (tool: string, code: string) =>
  (tool === "lomi_operation_get" || tool === "lomi_operation_lookup") && code !== "NOT_FOUND" && !NOT_ABOUT_THE_RECEIPT.has(code);

/**
 * The rule an input sent under `call`'s lease and sequence should have met, when the broker treated it
 * otherwise (acknowledged or dispatched it under another sequence): a sequence already acknowledged
 * with the same payload INPUT-03, with another INPUT-04; a sequence no earlier input took INPUT-05
 * when it skips ahead, else INPUT-02 (the next one, sent once; one whose reply was lost counts as taken).
 */
export function sentSequenceRule(calls: readonly IndexedCall[], call: IndexedCall): string {
  // Every ordered input of a lease shares its sequence (Ctrl+C and text alike, INPUT-14).
  const sameLease = calls.filter((c) => c.index < call.index && isOrderedInput(c.tool) && c.args.leaseId === call.args.leaseId && c.envelope?.status === "ok");
  const before = sameLease.find((c) => c.args.inputSequence === call.args.inputSequence);
  if (before) return before.tool === call.tool && canonical(before.args) === canonical(call.args) ? "INPUT-03" : "INPUT-04";
  // An input whose reply was lost took its sequence too (INPUT-19): the next one follows it.
  const taken = [...sameLease, ...lostInputs(calls, call)];
  const highest = Math.max(0, ...taken.map((c) => Number(c.args.inputSequence)).filter(Number.isFinite));
  return Number(call.args.inputSequence) > highest + 1 ? "INPUT-05" : "INPUT-02";
}

/** A finding about the order of an input, by its tool: Android input is ordered like terminal input (INPUT-16), so its disorder is INPUT-16's too. */
export const orderedInputRules = (tool: string, rules: readonly string[]): string[] => (tool === "lomi_android_input" ? [...rules, "INPUT-16"] : [...rules]);

/** The inputs of `call`'s lease before it whose reply said NATIVE_UNAVAILABLE: sent or not, their sequence is taken for good. */
export const lostInputs = (calls: readonly IndexedCall[], call: IndexedCall) =>
  calls.filter(
    (c) =>
      c.index < call.index &&
      isOrderedInput(c.tool) &&
      c.args.leaseId === call.args.leaseId &&
      c.envelope?.status === "error" &&
      c.envelope.code === "NATIVE_UNAVAILABLE",
  );

let namingByCode: Map<string, string[]> | undefined;

/** The rules whose sentence, or decision (docs/decisions.md), names an error code (or a cancel outcome such as already_settled): those that make it the answer. */
export function rulesNamingCode(code: string): string[] {
  namingByCode ??= new Map();
  const known = namingByCode.get(code);
  if (known) return known;
  const names = (text: string | undefined) => new RegExp(`\\b${code}\\b`).test(text ?? "");
  const found = loadRules()
    .rules.filter((r) => names(r.title) || names(r.decision))
    .map((r) => r.id);
  namingByCode.set(code, found);
  return found;
}

/**
 * Codes a general decision makes the answer across rules ("An ID Lomi does not know … is refused
 * with NOT_FOUND, the answer for any unknown target"): a scenario expecting one judges its own rules.
 */
const GENERAL_CODES: ReadonlySet<string> = new Set(["NOT_FOUND"]);

/**
 * The rules an answer other than the expected `codes` breaks: of those that make a code the answer,
 * the ones the scenario cites; else the one the refusal's field or kind names (refusalRules); else
 * all of them. None (the scenario's own rules then) for a code a general decision gives.
 */
export function expectedCodeRules(codes: readonly string[], tool: string, args: unknown, cited: readonly string[]): string[] {
  const naming = [...new Set(codes.filter((c) => !GENERAL_CODES.has(c)).flatMap(rulesNamingCode))];
  const mine = naming.filter((id) => cited.includes(id));
  if (mine.length > 0 || naming.length === 0) return mine;
  const plain = typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const byRefusal = codes.flatMap((c) => refusalRules(tool, c, plain)).filter((id) => naming.includes(id));
  return byRefusal.length > 0 ? [...new Set(byRefusal)] : naming;
}

/**
 * The rules whose sentence says how an operation of a tool settles when Lomi settled it so (the
 * state, and the effectState where the rule names one too): the typed outcome a receipt owes it.
 */
const SETTLEMENT_RULES: ReadonlyArray<{ tool: string; state: string; effectState?: string; rule: string; namesEffectState: boolean }> = [
  { tool: "lomi_android_launch", state: "succeeded", rule: "OP-10", namesEffectState: false },
  { tool: "lomi_browser_upload", state: "succeeded", rule: "OP-20", namesEffectState: false },
  { tool: "lomi_browser_open", state: "succeeded", rule: "OP-21", namesEffectState: false },
  { tool: "lomi_browser_navigate", state: "succeeded", rule: "OP-21", namesEffectState: false },
  { tool: "lomi_browser_open", state: "failed", effectState: "partial", rule: "OP-22", namesEffectState: true },
  { tool: "lomi_workspace_close", state: "succeeded", rule: "OP-31", namesEffectState: true },
  { tool: "lomi_chat_send", state: "succeeded", rule: "OP-42", namesEffectState: true },
];

/** Every rule a settled receipt's disagreement with Lomi's settlement may break (effect-state-agrees's). */
export const SETTLEMENT_RULE_IDS = [...new Set(SETTLEMENT_RULES.map((r) => r.rule))];

type Outcome = { state: string; effectState: unknown };

/** The rule that says how this tool's operation settles when Lomi settled it `lomi`, if one does. */
export function settlementRuleOf(tool: string, lomi: Outcome): { rule: string; namesEffectState: boolean } | undefined {
  return SETTLEMENT_RULES.find((r) => r.tool === tool && r.state === lomi.state && (r.effectState === undefined || r.effectState === lomi.effectState));
}

/**
 * The rules a receipt read settled `read` breaks where Lomi settled the operation `lomi`: another
 * state breaks the rule that says how the tool settles (none where no rule does: OP-04 speaks of
 * the effectState, and the steps judge each state by their own rule); another effectState breaks
 * OP-04, and that rule too where it names the effectState.
 */
export function settlementRules(tool: string, lomi: Outcome, read: Outcome): string[] {
  const own = settlementRuleOf(tool, lomi);
  const rules: string[] = [];
  if (read.state !== lomi.state && own) rules.push(own.rule);
  if (read.effectState !== lomi.effectState) rules.push("OP-04", ...(own?.namesEffectState ? [own.rule] : []));
  return [...new Set(rules)];
}

/** Whether a broker crash lies between two history records. */
export const crashBetween = (crashes: readonly number[], from: number, to: number) => crashes.some((c) => c > from && c < to);
