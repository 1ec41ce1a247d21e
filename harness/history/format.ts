import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { ledgerEntrySchema } from "../../protocol/control-api.js";
import { isoTime } from "../../protocol/fields.js";
import { configError } from "../harness-error.js";

// A recorded history: JSON Lines, one record a line, in the order things happened. docs/explore.md
// describes the format for teams that record their own traffic and run `lomi-conformance check`.
export const HISTORY_FORMAT = "lomi-history/1";

export const headerRecord = z.strictObject({
  type: z.literal("header"),
  format: z.literal(HISTORY_FORMAT),
  /** What produced it: an explore run (seed, broker) or a team's own recorder. */
  source: z.string(),
  seed: z.number().int().nonnegative().optional(),
  /** True when the history ends with Lomi's effect ledger (an explore run); a team's own traffic has none. */
  ledger: z.boolean().default(false),
  /**
   * Whose clock the times are on: Lomi's (absent), or a recorder's between a client and a broker,
   * which never sees Lomi's — then no check compares a time with one Lomi gave (an epoch's expiry).
   */
  clock: z.enum(["lomi", "recorder"]).optional(),
});

/** What came back for a call: the MCP tool result, or nothing (the connection died, the call timed out). */
export const replyRecord = z.discriminatedUnion("status", [
  z.strictObject({ status: z.literal("answered"), isError: z.boolean().optional(), structuredContent: z.unknown(), content: z.unknown().optional() }),
  z.strictObject({ status: z.literal("lost"), reason: z.string() }),
]);
export type ReplyRecord = z.infer<typeof replyRecord>;

/** The text block that only mirrors a reply's structuredContent, as MCP servers write it: a history may leave it out. */
export const mirrorOf = (structuredContent: unknown) => [{ type: "text", text: JSON.stringify(structuredContent) }];

/** The answered reply of a tool result, its text block left out when it only mirrors structuredContent (as the format allows). */
export function answeredReply(result: { isError?: boolean; structuredContent?: unknown; content?: unknown }): ReplyRecord {
  const { isError, structuredContent, content } = result;
  return {
    status: "answered",
    ...(isError !== undefined ? { isError } : {}),
    structuredContent,
    ...(isDeepStrictEqual(content, mirrorOf(structuredContent)) ? {} : { content }),
  };
}

/**
 * One tools/call and its reply. `agent` is the pairing identity (the MCP client's name), `connection`
 * tells its connections apart; times are Lomi's clock. Calls do not overlap, except those that share
 * a `concurrent` mark: they were in flight together, and are recorded as their replies came.
 */
export const callRecord = z.strictObject({
  type: z.literal("call"),
  agent: z.string().min(1),
  /** The client's version (initialize's clientInfo.version), where the recorder saw one: an agent is judged as its name and version (docs/agents.md). */
  agentVersion: z.string().min(1).optional(),
  connection: z.string().min(1),
  tool: z.string().min(1),
  /**
   * The arguments as sent: an object, or the other JSON value a client sent in its place (an array,
   * a string: SCH-06's refusals), kept as it came; typed as the object it should be.
   */
  args: z.custom<Record<string, unknown>>((value) => value !== undefined),
  sentAt: isoTime,
  answeredAt: isoTime,
  concurrent: z.string().optional(),
  reply: replyRecord,
});
export type CallRecord = z.infer<typeof callRecord>;

export const FAULT_KINDS = [
  "hold", // the next dispatch of a tool is held until released
  "fail", // the next dispatch fails before any effect
  "lose-reply", // a reply never arrives: the next dispatch's, at the broker (explore); a broker's, at its agent (record --faults, detail.injectedBy)
  "release", // a held dispatch ends (complete, fail, honour-cancel)
  "user-decision", // the user approves or denies an operation waiting in awaiting_user
  "pairing-decision", // the user approves or denies a pairing
  "broker-crash", // the broker dies (SIGKILL for a process) and a new instance opens the same store
  "runtime-restart", // a panel's runtime restarts: its identity goes stale
  "layout-change", // the user changes a workspace's layout: its domainRevision moves
  "clock-advance", // Lomi's clock moves on a little (commands finish)
  "clock-jump", // Lomi's clock jumps past 24 hours (retry epochs expire)
  "world-change", // something else in Lomi changes: another program writes a file, the user types
  "world-reset", // Lomi starts again from another world (a scenario's "Given the Lomi world")
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Something the harness (or the world) did to the system under test, outside the agents' calls. */
export const faultRecord = z.strictObject({
  type: z.literal("fault"),
  kind: z.enum(FAULT_KINDS),
  at: isoTime,
  detail: z.record(z.string(), z.unknown()),
});
export type FaultRecord = z.infer<typeof faultRecord>;

/** Which pairing Lomi gave each client name: ties the ledger (by pairingId) to the calls (by agent). */
export const pairingRecord = z.strictObject({ type: z.literal("pairing"), pairingId: z.string(), agent: z.string() });

/** One entry of Lomi's effect ledger, the ground truth of what happened natively (explore only). */
export const ledgerRecord = z.strictObject({ type: z.literal("ledger"), entry: ledgerEntrySchema });

export const historyRecord = z.discriminatedUnion("type", [headerRecord, callRecord, faultRecord, pairingRecord, ledgerRecord]);
export type HistoryRecord = z.infer<typeof historyRecord>;

/** A history split by kind, each list in recorded order; `order` gives every record's position. */
export interface History {
  header: z.infer<typeof headerRecord> | undefined;
  records: HistoryRecord[];
  /** undefined when the history carries no ledger: the checks that need it are not applicable. */
  ledger: Array<z.infer<typeof ledgerEntrySchema>> | undefined;
  pairings: Map<string, string>;
}

export function historyOf(records: HistoryRecord[]): History {
  const ledger = records.flatMap((r) => (r.type === "ledger" ? [r.entry] : []));
  const header = records.find((r): r is z.infer<typeof headerRecord> => r.type === "header");
  const hasLedger = header?.ledger === true || ledger.length > 0;
  return {
    header,
    records,
    ledger: hasLedger ? ledger : undefined,
    pairings: new Map(records.flatMap((r) => (r.type === "pairing" ? [[r.pairingId, r.agent] as const] : []))),
  };
}

/** The JSONL text of a history: one canonical line a record, so the same run gives the same bytes. */
export function formatHistory(records: readonly HistoryRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join("");
}

/** Parses JSONL; a line that is not a history record is a configuration error naming the line. */
export function parseHistory(text: string, name = "history"): History {
  const records = parseRecords(text, name);
  if (!records.some((r) => r.type === "call")) throw configError(`${name} holds no call records; see docs/explore.md for the format`);
  return historyOf(records);
}

/** The records of a JSONL history, which may hold no call yet (a recorder appends to it). */
export function parseRecords(text: string, name = "history"): HistoryRecord[] {
  const records: HistoryRecord[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw configError(`${name}:${i + 1} is not JSON (${(error as Error).message})`);
    }
    const parsed = historyRecord.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw configError(`${name}:${i + 1} is not a history record (${issue?.path.join(".") || "record"}: ${issue?.message}); see docs/explore.md`);
    }
    // zod's record rebuilds the arguments, and an own "__proto__" key does not survive that: the
    // arguments are kept as JSON.parse read them, every key as sent (SCH-06 judges exactly those).
    records.push(parsed.data.type === "call" ? { ...parsed.data, args: (value as { args: Record<string, unknown> }).args } : parsed.data);
  }
  return records;
}

export function readHistory(file: string): History {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw configError(`cannot read the history ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseHistory(text, file);
}

/**
 * The file a run writes a scenario's history to: named after its feature and its name, so a failed
 * one is easy to find; a repetition after the first (--repeat) adds its number.
 */
export const historyFileName = (scenario: { uri: string; name: string }, repetition = 1) =>
  `${`${scenario.uri.replace(/^.*\//, "").replace(/\.feature$/, "")}--${scenario.name}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 120)}${repetition > 1 ? `--repeat-${repetition}` : ""}.jsonl`;
