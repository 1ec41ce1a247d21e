import { buildToolResult, type Envelope, type EnvelopeToolResult, type ImageBlock } from "../protocol/envelope.js";
import { ERROR_CODES, type ErrorCode } from "../protocol/errors.js";
import { loadRules } from "../harness/rules.js";
import type { Mutant } from "./mutant.js";
import { sessionRewritingReplies } from "./rewriting-session.js";

/** What an untyped broker answers instead: Lomi's generic failure (or, for that one, the broker's own). */
const generic = (code: ErrorCode): ErrorCode => (code === "NATIVE_FAILURE" ? "INTERNAL" : "NATIVE_FAILURE");

/** Every `code` equal to `from`, anywhere in a reply (an error envelope's, a receipt's typed error), becomes `to`. */
function recoded(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((v) => recoded(v, from, to));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "code" && v === from ? to : recoded(v, from, to)]));
}

/** The reply an untyped broker gives for `reply`: `code` answered as the generic failure, the text block mirroring it. */
export function untypedReply(reply: EnvelopeToolResult, code: ErrorCode): EnvelopeToolResult {
  if (!JSON.stringify(reply.structuredContent).includes(`"${code}"`)) return reply;
  const envelope = recoded(reply.structuredContent, code, generic(code)) as Envelope;
  return buildToolResult(envelope, reply.content.filter((b): b is ImageBlock => b.type === "image"));
}

/**
 * What an untyped-<code> mutant contradicts: the rules whose sentence names the code, or whose
 * decision (docs/rules.json, from docs/decisions.md) makes it the answer their scenarios check.
 */
function rulesNaming(code: ErrorCode): string[] {
  const names = (text: string | undefined) => new RegExp(`\\b${code}\\b`).test(text ?? "");
  return loadRules()
    .rules.filter((r) => names(r.title) || names(r.decision))
    .map((r) => r.id);
}

/** The error code a generated mutant loses, or undefined for another mutant. */
export const untypedCodeOf = (m: Mutant): ErrorCode | undefined => ERROR_CODES.find((c) => m.name === `untyped-${c.toLowerCase().replace(/_/g, "-")}`);

/**
 * One mutant per error code: a broker that loses that code and answers Lomi's generic failure in its
 * place, in replies and in receipts, with the same message (the defect of a broker that maps what it
 * does not recognise to one catch-all). Every rule that names the code must fail it; `lomi-conformance
 * teeth` runs them beside mutants/index.ts's to show which rules have teeth. They are not in `npm
 * test`'s mutant gate: each is the same one-line rewrite, judged by the rules that name its code.
 */
export const UNTYPED_CODE_MUTANTS: readonly Mutant[] = ERROR_CODES.filter((c) => c !== "INTERNAL").map((code) => ({
  name: `untyped-${code.toLowerCase().replace(/_/g, "-")}`,
  family: "ENV",
  breaks: rulesNaming(code),
  defect: `${code} is answered as ${generic(code)}, with the same message, in replies and receipts`,
  parts: { session: sessionRewritingReplies((reply) => untypedReply(reply, code)) },
}));
