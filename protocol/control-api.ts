import { z } from "zod";
import { decimalRevision, id, isoTime } from "./fields.js";
import { projectFilesSeed } from "./files-control.js";
import { ERROR_CODES } from "./errors.js";
import { NATIVE_SETTLED_STATES, permitSchema } from "./native-bridge.js";
import { effectStateSchema } from "./states.js";
import { conversationSeed } from "./tools/chat.js";
import { repositorySeed } from "./tools/git.js";
import { runtimeRef } from "./tools/input.js";
import { panelSchema } from "./tools/workspace.js";

// The simulator's control API: what a harness uses to seed the world, play the user, inject faults and
// read the ground truth. HTTP + JSON under /control/v1, served by the same msw handlers as the bridge.
export const CONTROL_PATHS = {
  reset: "/control/v1/reset",
  snapshot: "/control/v1/snapshot",
  ledger: "/control/v1/ledger",
  pairings: "/control/v1/pairings",
  decide: "/control/v1/pairings/decide",
  faults: "/control/v1/faults",
  release: "/control/v1/held/release",
  advanceClock: "/control/v1/clock/advance",
  layoutChange: "/control/v1/layout/change",
  restartRuntime: "/control/v1/runtime/restart",
  takeOverLease: "/control/v1/leases/take-over",
  approvals: "/control/v1/approvals",
  decideApproval: "/control/v1/approvals/decide",
  decisions: "/control/v1/decisions",
  decideOperation: "/control/v1/decisions/decide",
  files: "/control/v1/files",
  otherProgramWrite: "/control/v1/files/write",
  protectFile: "/control/v1/files/protect",
  editorType: "/control/v1/editor/type",
} as const;

export const commandScript = z.strictObject({
  output: z.string().default(""),
  durationMs: z.number().int().nonnegative().default(0),
  exitCode: z.number().int().min(0).max(255).default(0),
  ignoresInterrupt: z.boolean().default(false),
});

/** An Android runtime panel with its device: screen size (for native range checks) and installed apps. */
export const androidDeviceSeed = z.strictObject({
  panelId: id,
  projectId: id,
  title: z.string(),
  device: z.string(),
  screen: z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() }),
  /** opensScreen false: the app takes the launch intent and never shows its screen (it crashes at start). */
  apps: z.array(z.strictObject({ appId: z.string(), opensScreen: z.boolean().default(true) })).default([]),
});

/** Where Lomi's clock starts in a world that does not say. */
export const DEFAULT_CLOCK_START = "2026-01-05T09:00:00.000Z";

export const worldSeedSchema = z.strictObject({
  clockStart: isoTime.default(DEFAULT_CLOCK_START),
  autoApprovePairings: z.boolean().default(false),
  workspaces: z
    .array(
      z.strictObject({
        workspaceId: id,
        name: z.string(),
        domainRevision: decimalRevision.default("1"),
        projects: z.array(z.strictObject({ projectId: id, name: z.string() })).min(1),
        /** Left out of the user's approval unless named explicitly. */
        approvalByDefault: z.boolean().default(true),
        android: z.array(androidDeviceSeed).default([]),
      }),
    )
    .min(1),
  commands: z.record(z.string(), commandScript).default({}),
  conversations: z.array(conversationSeed).default([]),
  repositories: z.array(repositorySeed).default([]),
  /** Each project's files, directories and open editor documents, by projectId. */
  projectFiles: z.record(id, projectFilesSeed).default({}),
});
export type WorldSeed = z.input<typeof worldSeedSchema>;
export type World = z.output<typeof worldSeedSchema>;

export const resetRequest = z.strictObject({ world: worldSeedSchema, seed: z.number().int().nonnegative() });

export const decideRequest = z.strictObject({
  clientName: z.string(),
  decision: z.enum(["approve", "deny"]),
  workspaceIds: z.array(id).optional(),
});

/** The decisions Lomi is showing the user for operations waiting in awaiting_user. */
export const decisionsReply = z.strictObject({
  decisions: z.array(z.strictObject({ operationId: id, tool: z.string(), question: z.string() })),
});
export const operationDecisionRequest = z.strictObject({ operationId: id, decision: z.enum(["approve", "deny"]) });

export const FAULT_ACTIONS = ["hold", "fail", "lose-reply"] as const;
export const faultRequest = z.strictObject({ action: z.enum(FAULT_ACTIONS), tool: z.string().optional() });
export const faultReply = z.strictObject({ faultId: id });

export const RELEASE_OUTCOMES = ["complete", "fail", "honour-cancel"] as const;
export const releaseRequest = z.strictObject({ operationId: id, outcome: z.enum(RELEASE_OUTCOMES) });

export const advanceClockRequest = z.strictObject({ ms: z.number().int().nonnegative() });
/** Lomi's clock after the jump, in milliseconds since the epoch. */
export const advanceClockReply = z.strictObject({ now: z.number().int() });
export const layoutChangeRequest = z.strictObject({ workspaceId: id });
export const restartRuntimeRequest = z.strictObject({ panelId: id });
/** Another client of Lomi (another pairing, served by another broker or none) takes a runtime's lease: the holder's lease expires. */
export const takeOverLeaseRequest = z.strictObject({ clientName: z.string().min(1).max(128), runtime: runtimeRef });
export const takeOverLeaseReply = z.strictObject({ leaseId: id });
/** The new identity of the panel's runtime, named as the panel's kind names it. */
export const restartRuntimeReply = z.union([
  z.strictObject({ terminalSessionId: id }),
  z.strictObject({ browserGeneration: id }),
  z.strictObject({ generation: id }),
]);

/** One kind of ledger entry: the fields every entry has (a parsed entry, as histories keep it, has them in this order) and that kind's detail. */
const ledgerEntryOf = <K extends string, D extends z.ZodType>(kind: K, detail: D) =>
  z.strictObject({ sequence: z.number().int().positive(), at: isoTime, kind: z.literal(kind), operationId: id, tool: z.string(), pairingId: id, detail });

/** The arguments as Lomi received them: each tool's own, so a record here; an ordered input's are its request less pairing and tool. */
const receivedArgs = z.record(z.string(), z.unknown());

export const ledgerEntrySchema = z.discriminatedUnion("kind", [
  /** The arguments received, and the permit an operation came under (ordered input comes under none). */
  ledgerEntryOf("dispatch", z.strictObject({ args: receivedArgs, permit: permitSchema.optional() })),
  /** What happened natively: `what` names it (process.started, file.written…); the rest is that effect's own. */
  ledgerEntryOf("effect", z.looseObject({ what: z.string() })),
  /** A second dispatch under a permit already used, refused: what it carried. */
  ledgerEntryOf("replay", z.strictObject({ args: receivedArgs, permit: permitSchema })),
  ledgerEntryOf("cancel-request", z.strictObject({})),
  /** The outcome, and the effectState Lomi settled with. */
  ledgerEntryOf("settle", z.strictObject({ state: z.enum(NATIVE_SETTLED_STATES), error: z.enum(ERROR_CODES).nullable() })).extend({
    effectState: effectStateSchema,
  }),
]);
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export type LedgerKind = LedgerEntry["kind"];
export type LedgerEntryOf<K extends LedgerKind> = Extract<LedgerEntry, { kind: K }>;
type Unstamped<E> = E extends LedgerEntry ? Omit<E, "sequence" | "at"> : never;
/** An entry of whichever kind before the ledger numbers and stamps it: what a writer records. */
export type UnrecordedEntry = Unstamped<LedgerEntry>;
/** Narrows a ledger's entries to one kind: `ledger.filter(ofKind("dispatch"))`. */
export const ofKind =
  <K extends LedgerKind>(kind: K) =>
  (e: LedgerEntry): e is LedgerEntryOf<K> =>
    e.kind === kind;
export const ledgerReply = z.strictObject({ entries: z.array(ledgerEntrySchema) });

export const pairingsReply = z.strictObject({
  pairings: z.array(z.strictObject({ pairingId: id, clientName: z.string(), state: z.enum(["pending", "approved", "denied"]), workspaceIds: z.array(id) })),
});

export const snapshotReply = z.strictObject({
  now: z.number().int(),
  workspaces: z.array(
    z.strictObject({
      workspaceId: id,
      domainRevision: decimalRevision,
      open: z.boolean(),
      panels: z.array(panelSchema),
    }),
  ),
  processes: z.array(
    z.strictObject({
      operationId: id,
      terminalSessionId: id,
      command: z.string(),
      state: z.enum(["running", "exited"]),
      exitCode: z.number().int().nullable(),
    }),
  ),
});

export const approvalsReply = z.strictObject({
  approvals: z.array(
    z.strictObject({ approvalId: id, pairingId: id, subject: z.string(), detail: z.string(), state: z.enum(["pending", "approved", "denied", "spent"]) }),
  ),
});
export const decideApprovalRequest = z.strictObject({ approvalId: id, decision: z.enum(["approve", "deny"]) });
