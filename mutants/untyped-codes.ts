import { buildToolResult, type Envelope, type EnvelopeToolResult, type ImageBlock } from "../protocol/envelope.js";
import { ERROR_CODES, type ErrorCode } from "../protocol/errors.js";
import { rulesNamingCode } from "../harness/oracles/finding-rules.js";
import type { Mutant } from "./mutant.js";
import { sessionRewritingPicked } from "./rewriting-session.js";

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
  if (!holds(reply.structuredContent, code)) return reply;
  const envelope = recoded(reply.structuredContent, code, generic(code)) as Envelope;
  return buildToolResult(
    envelope,
    reply.content.filter((b): b is ImageBlock => b.type === "image"),
  );
}

/**
 * What an untyped-<code> mutant contradicts: the rules whose sentence or decision names the code
 * (harness/oracles/finding-rules.ts, the same reading a failed step blames by), and for NOT_FOUND,
 * which a general decision makes the answer for any unknown target (docs/decisions.md, "A display
 * name is an unknown target"), the rules whose scenarios refuse an unknown target with it.
 */
function rulesNaming(code: ErrorCode): string[] {
  return [...new Set([...rulesNamingCode(code), ...(code === "NOT_FOUND" ? UNKNOWN_TARGET_RULES : [])])];
}

/** Rules whose scenarios refuse an unknown target (a workspace, a key, a conversation, a document, an app, an operation) with NOT_FOUND. */
const UNKNOWN_TARGET_RULES = ["ENV-01", "SCH-03", "SCH-04", "SCH-34", "AUTH-41", "IDEM-05", "IDEM-06", "CANCEL-01"];

/** A generated mutant's name: `untyped-` and its code in kebab case. */
const untypedName = (code: ErrorCode) => `untyped-${code.toLowerCase().replace(/_/g, "-")}`;

/** Whether a reply holds `code` anywhere: the replies an untyped-<code> mutant rewrites. */
const holds = (structuredContent: unknown, code: ErrorCode) => JSON.stringify(structuredContent).includes(`"${code}"`);

/**
 * Codes no generated mutant loses: INTERNAL is the catch-all itself, and Lomi answers REPLAY_REFUSED
 * only to a second dispatch under one permit, which a correct broker never makes: losing it changes
 * nothing a run can see (an equivalent mutant, which no scenario could kill).
 */
const NOT_MUTATED: readonly ErrorCode[] = ["INTERNAL", "REPLAY_REFUSED"];

/**
 * One mutant per error code: a broker that loses that code and answers Lomi's generic failure in its
 * place, in replies and in receipts, with the same message (the defect of a broker that maps what it
 * does not recognise to one catch-all). Every rule that names the code must fail it; `lomi-conformance
 * teeth` runs them beside mutants/index.ts's to show which rules have teeth, and npm test holds each to
 * its declaration where its code can appear (test/e2e/blame-precision.test.ts).
 */
export const UNTYPED_CODE_MUTANTS: readonly Mutant[] = ERROR_CODES.filter((c) => !NOT_MUTATED.includes(c)).map((code) => ({
  name: untypedName(code),
  family: "ENV",
  breaks: rulesNaming(code),
  defect: `${code} is answered as ${generic(code)}, with the same message, in replies and receipts`,
  // It acts only on replies that hold its code: teeth judges it only where the reference broker's replies hold it.
  parts: {
    session: sessionRewritingPicked(
      ({ reply }) => holds(reply.structuredContent, code),
      (reply) => untypedReply(reply, code),
    ),
  },
}));
