import { z } from "zod";
import { messageOf } from "../../protocol/errors.js";
import {
  BLAME_MEDIA_TYPE,
  blameAttachment,
  ORACLE_MEDIA_TYPE,
  ORACLE_UNKNOWN_MEDIA_TYPE,
  oracleAttachment,
  oracleUnknownAttachment,
  parseAttachment,
  TRIGGERS_MEDIA_TYPE,
  triggersAttachment,
  VERDICT_MEDIA_TYPE,
  verdictAttachment,
  type OracleFailure,
} from "./attachments.js";
import { FAILURE_CONTEXT_FILE } from "./failure-context.js";
import type { MessageCollector, TestCaseAttempt } from "./message-collector.js";

/** What an attempt's attachments tell its judgement besides its steps' statuses, each read by its schema; one that does not parse tells nothing. */
export interface ScenarioFindings {
  /** Why it could not apply to this broker. */
  notApplicable: string | undefined;
  /** The harness's own failure that stopped it. */
  harnessFault: string | undefined;
  /** Oracles that failed on its history, each "ID (rules): error". */
  oraclesUnknown: string[];
  /** The failure context as attached (read loosely by explainFailure), or why it could not be read. */
  context: unknown;
  /** The rules each step's (or hook's) violation named, by test step. */
  blame: Map<string, string[]>;
  /** The test steps whose failure judges no rule, and why (no answer in time, an answer no rule names). */
  unjudged: Map<string, "no-answer" | "unexpected-answer">;
  /** The oracles its history broke. */
  oracles: OracleFailure[];
  /** How many times the oracles judged each rule in its history. */
  judged: Record<string, number> | undefined;
}

/** An attachment's JSON, or a marker that it was not JSON: the scenario keeps its verdict either way. */
function parsedOrLost(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    return { unreadable: messageOf(error) };
  }
}

/** What an attempt's attachments say, in the order they came (a later one of a kind replaces an earlier). */
export function findingsOf(a: TestCaseAttempt): ScenarioFindings {
  const f: ScenarioFindings = {
    notApplicable: undefined,
    harnessFault: undefined,
    oraclesUnknown: [],
    context: undefined,
    blame: new Map(),
    unjudged: new Map(),
    oracles: [],
    judged: undefined,
  };
  for (const at of a.attachments) {
    if (at.fileName === FAILURE_CONTEXT_FILE) f.context = parsedOrLost(at.body);
    if (at.mediaType === VERDICT_MEDIA_TYPE) {
      const v = parseAttachment(verdictAttachment, at.body);
      if (v?.kind === "not-applicable") f.notApplicable = v.reason;
      if (v?.kind === "harness-fault") f.harnessFault = v.reason;
    }
    if (at.mediaType === BLAME_MEDIA_TYPE && at.testStepId) {
      const b = parseAttachment(blameAttachment, at.body);
      if (b) f.blame.set(at.testStepId, b.rules);
      if (b && "unjudged" in b) f.unjudged.set(at.testStepId, b.unjudged);
    }
    if (at.mediaType === TRIGGERS_MEDIA_TYPE) f.judged = parseAttachment(triggersAttachment, at.body);
    if (at.mediaType === ORACLE_MEDIA_TYPE) f.oracles.push(...(parseAttachment(oracleAttachment, at.body) ?? []));
    if (at.mediaType === ORACLE_UNKNOWN_MEDIA_TYPE)
      f.oraclesUnknown.push(...(parseAttachment(oracleUnknownAttachment, at.body) ?? []).map((u) => `${u.id} (${u.rules.join(", ")}): ${u.error}`));
  }
  return f;
}

/** The attachment prefix under which a scenario reports the broker's serverInfo (once per worker). */
export const BROKER_IDENTITY = "broker-identity: ";

const brokerIdentitySchema = z.object({ name: z.string(), version: z.string() });

/** The broker's name and version as it gave them in its initialize answer, if any scenario reached it and they read as such. */
export function brokerIdentity(run: MessageCollector | undefined): { name: string; version: string } | undefined {
  const found = run?.attachments.find((a) => a.body.startsWith(BROKER_IDENTITY));
  const identity = found && brokerIdentitySchema.safeParse(parsedOrLost(found.body.slice(BROKER_IDENTITY.length)));
  return identity?.success ? identity.data : undefined;
}
