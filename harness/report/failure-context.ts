import { z } from "zod";
import { ledgerEntrySchema } from "../../protocol/control-api.js";

/** The file name of the attachment a failed scenario carries (cucumber messages, HTML report). */
export const FAILURE_CONTEXT_FILE = "lomi-failure-context.json";

/** What a failed scenario attaches: the last requests and replies, the ledger, the broker's log. */
export const failureContextSchema = z.strictObject({
  exchanges: z.array(
    z.strictObject({
      agent: z.string(),
      tool: z.string(),
      args: z.record(z.string(), z.unknown()),
      reply: z.unknown().optional(), // absent when none came (the error says why)
      error: z.string().optional(),
    }),
  ),
  ledger: z.array(ledgerEntrySchema),
  brokerLog: z.string(),
});
export type FailureContext = z.input<typeof failureContextSchema>;

/** A failed scenario, explained: where it stopped, why, the request and reply, and Lomi's ground truth. */
export interface FailureExplanation {
  /** The step that failed, as written in the feature. */
  step: string | undefined;
  /** What the step expected and what it found. */
  message: string;
  request: { agent: string; tool: string; args: Record<string, unknown> } | undefined;
  /** The last reply's structuredContent (or the whole result when it has none), or why none came. */
  reply: unknown;
  /** The ledger entries of the operations the last requests involved; the whole ledger when none. */
  ledger: z.infer<typeof ledgerEntrySchema>[];
  brokerLog: string;
}

const MAX_LEDGER = 30;

/** The operations a reply or request names: the ledger entries worth showing. */
function operationIdsIn(value: unknown): Set<string> {
  const ids = new Set<string>();
  const text = JSON.stringify(value ?? null);
  for (const m of text.matchAll(/"operationId":"([^"]+)"/g)) ids.add(m[1]!);
  return ids;
}

export function explainFailure(step: string | undefined, message: string, context: FailureContext | undefined): FailureExplanation {
  const parsed = context ? failureContextSchema.parse(context) : undefined;
  const last = parsed?.exchanges.at(-1);
  const reply = last ? (last.error ?? (last.reply as { structuredContent?: unknown } | undefined)?.structuredContent ?? last.reply) : undefined;
  const ledger = parsed?.ledger ?? [];
  const ids = operationIdsIn(parsed?.exchanges);
  const involved = ledger.filter((e) => ids.has(e.operationId));
  return {
    step,
    message,
    request: last && { agent: last.agent, tool: last.tool, args: last.args },
    reply,
    ledger: (involved.length > 0 ? involved : ledger).slice(-MAX_LEDGER),
    brokerLog: parsed?.brokerLog ?? "",
  };
}
