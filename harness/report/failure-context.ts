import { z } from "zod";
import { ledgerEntrySchema, type LedgerEntry } from "../../protocol/control-api.js";
import type { OracleFailure } from "./attachments.js";
import { bounded, boundedJson, boundedText } from "../text/bounded-json.js";

/** The file name of the attachment a failed scenario carries (cucumber messages, HTML report). */
export const FAILURE_CONTEXT_FILE = "lomi-failure-context.json";

/**
 * What a failed scenario attaches: the last requests and replies, the ledger, the broker's log.
 * Read loosely: a scenario sends what it means to test (arguments as an array, as null), a broker
 * answers whatever it answers, and a context from an older kit or another writer still explains.
 */
export const failureContextSchema = z.object({
  exchanges: z.array(
    z.object({
      agent: z.string(),
      tool: z.string(),
      args: z.unknown(),
      /** The arguments' JSON text as sent, when the writer kept it: shown verbatim. */
      sent: z.string().optional(),
      reply: z.unknown().optional(), // absent when none came (the error says why)
      error: z.string().optional(),
    }),
  ),
  ledger: z.array(z.unknown()),
  brokerLog: z.string(),
});
export type FailureContext = z.input<typeof failureContextSchema>;

/** A failed scenario, explained: where it stopped, why, the request and reply, and Lomi's ground truth. */
export interface FailureExplanation {
  /** The step that failed, as written in the feature. */
  step: string | undefined;
  /** What the step expected and what it found. */
  message: string;
  /** The last request: its arguments as the scenario sent them (not always an object), and their JSON text as sent. */
  request: { agent: string; tool: string; args: unknown; sent?: string } | undefined;
  /** Every call of the scenario up to the failure, in order (the last ones when there were many): each request as sent, and its reply or why none came. */
  exchanges?: Exchange[];
  /** The scenario's steps with what became of each: passed, failed, skipped. */
  steps?: Array<{ text: string; status: string }>;
  /** The last reply's structuredContent (or the whole result when it has none), or why none came. */
  reply: unknown;
  /** The ledger entries of the operations the last requests involved; the whole ledger when none. */
  ledger: LedgerEntry[];
  brokerLog: string;
  /** Set when part of the explanation could not be built: what was lost, and why (the verdict stands). */
  lost?: string;
  /** The oracles the scenario's history broke, each violation with the history records that show it. */
  oracles?: OracleFailure[];
}

/** The name cucumber writes before a thrown error's message: a report shows the message alone. */
export const ERROR_NAME = /^(ConformanceViolation|AssertionError(?: \[ERR_ASSERTION\])?|HarnessFault|Error): /;

/** A failure's summary: its first line, the error's name left out. The kit's checks put there every value that differs (harness/expected-found.ts). */
export const summaryOf = (message: string | undefined) => ((message ?? "").split("\n").find((l) => l.trim() !== "") ?? "").replace(ERROR_NAME, "").trim();

/** What a failure's message says below its summary: what the check looked at, a line per tool or record. */
export function detailOf(message: string): string {
  const lines = message.split("\n");
  const first = lines.findIndex((l) => l.trim() !== "");
  return lines
    .slice(first + 1)
    .join("\n")
    .trim();
}

/** A detail longer than this is folded below its summary: the summary says it, the detail proves it. */
const FOLD_LINES = 12;
const FOLD_CHARS = 1_500;
export const folded = (detail: string) => detail.split("\n").length > FOLD_LINES || detail.length > FOLD_CHARS;

/** A step's status as a glyph beside its text: ✓ passed, ✗ failed (or could not run as written), – skipped. */
export const stepGlyph = (status: string) => (status === "PASSED" ? "✓" : status === "SKIPPED" ? "–" : "✗");

/** The scenario's steps, a line each with its glyph. */
export const stepsText = (steps: ReadonlyArray<{ text: string; status: string }>) => steps.map((s) => `${stepGlyph(s.status)} ${s.text}`).join("\n");

/** Lomi's ledger as a failure shows it, an entry a line: the same text in conformance.md and .html. */
export const ledgerText = (ledger: readonly LedgerEntry[]) =>
  ledger.map((e) => `${e.sequence} ${e.kind} ${e.tool} ${e.operationId} ${boundedJson(e.detail, 500)}`).join("\n");

/** The history records an oracle's violation points at, a record a line, each bounded. */
export const recordsText = (records: OracleFailure["violations"][number]["records"]) =>
  records.map((r) => `#${r.index} ${boundedJson(r.record, 600)}`).join("\n");

/** One call as a failure shows it. */
export interface Exchange {
  agent: string;
  tool: string;
  sent: string;
  reply: unknown;
}

/** The arguments' JSON text: as sent when the writer kept it, else as read back. */
const sentText = (e: { args: unknown; sent?: string | undefined }) => e.sent ?? boundedJson(e.args, 20_000);
/** A reply as a failure shows it: its structuredContent (or the whole result), or why none came. */
const replyOf = (e: { reply?: unknown; error?: string | undefined }) =>
  e.error ?? (typeof e.reply === "object" && e.reply !== null && "structuredContent" in e.reply ? e.reply.structuredContent : undefined) ?? e.reply;

const MAX_LEDGER = 30;
/** Calls kept of a failed scenario: the last ones, where the failure is. */
export const MAX_EXCHANGES = 40;
const MAX_LOG = 4_000;

/** What the After hook of a failed scenario attaches: every value bounded, so any reply can be written and read back. */
export function failureContextOf(exchanges: readonly unknown[], ledger: readonly unknown[], brokerLog: string): FailureContext {
  return bounded({ exchanges, ledger, brokerLog: brokerLog.slice(-MAX_LOG) }) as FailureContext;
}

/** The operations a reply or request names: the ledger entries worth showing. */
function operationIdsIn(value: unknown): Set<string> {
  const ids = new Set<string>();
  for (const [, id] of boundedText(value ?? null, 200_000).matchAll(/"operationId":"([^"]+)"/g)) if (id !== undefined) ids.add(id);
  return ids;
}

/** Explains a failure from its attachment; never throws: what cannot be read is named in `lost`, the rest kept. */
export function explainFailure(step: string | undefined, message: string, context: unknown): FailureExplanation {
  const none: FailureExplanation = { step, message, request: undefined, reply: undefined, ledger: [], brokerLog: "" };
  if (context === undefined) return none;
  const parsed = failureContextSchema.safeParse(bounded(context));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ...none,
      lost: `the explanation of this failure could not be built: its context is not readable at ${issue?.path.join(".") || "(root)"} (${issue?.message})`,
    };
  }
  const last = parsed.data.exchanges.at(-1);
  const reply = last ? replyOf(last) : undefined;
  const ledger = parsed.data.ledger.flatMap((e) => {
    const entry = ledgerEntrySchema.safeParse(e);
    return entry.success ? [entry.data] : [];
  });
  const ids = operationIdsIn(parsed.data.exchanges);
  const involved = ledger.filter((e) => ids.has(e.operationId));
  const unread = parsed.data.ledger.length - ledger.length;
  return {
    step,
    message,
    request: last && { agent: last.agent, tool: last.tool, args: last.args, sent: sentText(last) },
    reply,
    exchanges: parsed.data.exchanges.map((e) => ({ agent: e.agent, tool: e.tool, sent: sentText(e), reply: replyOf(e) })),
    ledger: (involved.length > 0 ? involved : ledger).slice(-MAX_LEDGER),
    brokerLog: parsed.data.brokerLog,
    ...(unread > 0 ? { lost: `${unread} ledger entries could not be read` } : {}),
  };
}
