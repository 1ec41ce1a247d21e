import type { z } from "zod";
import type { LedgerEntryOf, World } from "../protocol/control-api.js";
import type { EffectState } from "../protocol/states.js";
import type { ErrorCode } from "../protocol/errors.js";
import type { NativeProgress, NativeSettledState } from "../protocol/native-bridge.js";
import type { Random } from "../protocol/ports.js";
import type { Decisions } from "./decisions.js";
import type { BrowserRuntimes } from "./browser/browser-runtimes.js";
import type { FileWorld } from "./files/file-world.js";
import type { Ledger } from "./ledger.js";
import type { LomiClock } from "./lomi-clock.js";
import type { Pairing, WorkspaceState, WorldState } from "./world-state.js";

export interface NativeContext {
  world: WorldState;
  ledger: Ledger;
  clock: LomiClock;
  random: Random;
  commands: World["commands"];
  /** Where a tool puts a question to the user, waiting in awaiting_user for the answer. */
  decisions: Decisions;
  browsers: BrowserRuntimes;
  /** Every project's files and the shared editor's documents. */
  files: FileWorld;
}

export interface Target<A> {
  pairing: Pairing;
  ws: WorkspaceState;
  projectId: string;
  args: A;
}

/** One dispatched operation as Lomi sees it. */
export interface NativeOperation<A = Record<string, unknown>> extends Target<A> {
  operationId: string;
  tool: string;
  progress: NativeProgress;
  cancelRequested: boolean;
  /** Set while a `hold` fault keeps the effect from starting. */
  held: boolean;
}

export interface Settlement {
  state: NativeSettledState;
  effectState: EffectState;
  result: Record<string, unknown> | null;
  error: { code: ErrorCode; message: string } | null;
}

/** What the dispatcher offers a tool: to settle its operation, recorded once in the ledger. */
export type Settle = (op: NativeOperation, settlement: Settlement) => void;

/** The native side of one tool: its validators and its effect. */
export interface NativeTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  args: S;
  /** Narrower than the schema: ranges, permissions, resource state. Throws a LomiError; changes nothing. */
  check(ctx: NativeContext, target: Target<z.infer<S>>): void;
  /** Starts the effect: settles the operation or leaves it running. */
  start(ctx: NativeContext, op: NativeOperation<z.infer<S>>, settle: Settle): void;
  /** Lets time-driven work progress (the virtual clock moved). */
  tick?(ctx: NativeContext, op: NativeOperation<z.infer<S>>, settle: Settle): void;
  /** Handles a cancellation request for work that already started. */
  cancel?(ctx: NativeContext, op: NativeOperation<z.infer<S>>, settle: Settle): void;
}

/** Records in the ledger what happened natively for an operation: the ground truth scenarios compare with. */
export function recordEffect(ctx: NativeContext, op: NativeOperation, detail: LedgerEntryOf<"effect">["detail"]): void {
  ctx.ledger.record({ kind: "effect", operationId: op.operationId, tool: op.tool, pairingId: op.pairing.pairingId, detail });
}
