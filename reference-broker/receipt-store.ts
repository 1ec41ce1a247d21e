import type { LomiError } from "../protocol/errors.js";
import { canTransition, isSettled, type EffectState, type OperationState } from "../protocol/states.js";

/** How many receipts and retry epochs a store admits before RESOURCE_EXHAUSTED (the source's 4,096 each). */
export interface StoreLimits {
  receipts: number;
  epochs: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = { receipts: 4096, epochs: 4096 };

export interface StoredReceipt {
  operationId: string;
  receiptKey: string;
  fingerprint: string;
  pairingId: string;
  retryEpoch: string;
  projectId: string;
  workspaceId: string;
  tool: string;
  requestKey: string;
  serializeKey: string;
  args: Record<string, unknown>;
  state: OperationState;
  effectState: EffectState;
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  createdAt: number;
  updatedAt: number;
}

export interface StoredEpoch {
  retryEpoch: string;
  pairingId: string;
  brokerInstanceId: string;
  connectionId: string;
  workspaceId: string;
  projectIds: string[];
  issuedAt: number;
  expiresAt: number;
}

export interface StoredEvent {
  sequence: number;
  operationId: string;
  tool: string;
  workspaceId: string;
  previousState: OperationState | null;
  state: OperationState;
  effectState: EffectState;
  at: number;
}

export interface TransitionFields {
  effectState?: EffectState;
  result?: Record<string, unknown> | null;
  error?: { code: string; message: string } | null;
}

/**
 * One admission's reservation: a queued receipt, claimed (moved to running, at its createdAt) in the
 * same write when `claim` and nothing is ahead of it on its target.
 */
export interface Reservation {
  receipt: StoredReceipt;
  claim: boolean;
}

/** What one reservation of a batch came to: the receipt that holds its key, or its own refusal (the rest of the batch stands). */
export type ReservationOutcome = { receipt: StoredReceipt; inserted: boolean } | { refused: LomiError };

/** One move of a chain: to `to`, with these fields. */
export interface TransitionStep {
  to: OperationState;
  fields: TransitionFields;
}

/**
 * What Lomi said of one operation, as the moves it makes (a queued receipt first running, then
 * settled), recorded in one write with the other chains of its batch: each step a compare-and-set
 * on the receipt the step before left (a step that does not apply leaves it as it was).
 */
export interface TransitionChain {
  current: StoredReceipt;
  steps: readonly TransitionStep[];
  now: number;
}

/** What one epoch of a batch came to: recorded, or its own refusal (the rest of the batch stands). */
export type EpochOutcome = { recorded: true } | { refused: LomiError };

export interface StoreStatus {
  receipts: { count: number; limit: number };
  retryEpochs: { count: number; limit: number; expired: number };
  unfinished: number;
  outcomeUnknown: number;
}

export interface Reconciled {
  receipts: number;
  retryEpochs: number;
  events: number;
}

/**
 * The broker's durable receipts, retry epochs and events. Every state change is a compare-and-set
 * on the previous state, recorded with its event in one write, so a crash leaves both or neither.
 * Writes that return have been made durable; a failed write throws STORE_UNAVAILABLE.
 */
export interface ReceiptStore {
  byKey(receiptKey: string): StoredReceipt | undefined;
  byId(operationId: string): StoredReceipt | undefined;
  /**
   * Reserves each receipt (queued) unless its key is held already, in ONE durable write: group
   * commit. A reservation past the limit is refused on its own; a failed write throws for all.
   */
  reserveAll(reservations: readonly Reservation[]): ReservationOutcome[];
  /** Unsettled receipts sharing a serialization target, oldest first. */
  unsettledOn(serializeKey: string): StoredReceipt[];
  unsettledIn(pairingId: string, workspaceId: string): StoredReceipt[];
  /**
   * Compare-and-set from the receipt's current state. Answers the updated receipt, or undefined when
   * the state moved underneath (someone else won) or the transition is not legal.
   */
  transition(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined;
  /**
   * Records every chain in ONE durable write (the settlements learned from Lomi in one turn: group
   * commit), answering for each the receipt as stored after it. A failed write throws for all.
   */
  transitionAll(chains: readonly TransitionChain[]): StoredReceipt[];
  events(pairingId: string, workspaceId: string, after: number, limit: number): { events: StoredEvent[]; hasMore: boolean };
  status(now: number): StoreStatus;
  /**
   * Deliberate maintenance: removes settled receipts last changed at or before `settledBefore`
   * (outcome_unknown excepted), the named receipts of this pairing whatever their state, their
   * events, and expired epochs that no remaining receipt refers to. One write.
   */
  reconcile(now: number, settledBefore: number, pairingId: string, forget: readonly string[]): Reconciled;
  /**
   * Records the epochs in one durable write (lomi_connect's group commit). An epoch past the limit
   * is refused on its own; a failed write throws for all.
   */
  insertEpochs(epochs: readonly StoredEpoch[]): EpochOutcome[];
  epoch(retryEpoch: string): StoredEpoch | undefined;
  close(): void;
}

/** A store as opened: how many unfinished operations the opening turned outcome_unknown, and how many times it has been opened. */
export interface OpenedStore {
  store: ReceiptStore;
  recovered: number;
  openings: number;
}

export function receiptLimitReached(limits: StoreLimits): string {
  return `The receipt store holds ${limits.receipts} receipts, its limit; reconcile it deliberately (lomi_store_reconcile) before new operations.`;
}

export function epochLimitReached(limits: StoreLimits): string {
  return `The receipt store holds ${limits.epochs} retry epochs, its limit; reconnecting does not clear history. Reconcile the store deliberately.`;
}

/**
 * The receipt a legal transition makes of `current`, or undefined when the move is illegal (settled
 * is final). Every store applies it, then compares-and-sets on the previous state and effect.
 */
export function transitioned(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined {
  const sameState = current.state === to;
  if (!sameState && !canTransition(current.state, to)) return undefined;
  if (sameState && isSettled(to)) return undefined;
  return {
    ...current,
    state: to,
    effectState: fields.effectState ?? current.effectState,
    result: fields.result !== undefined ? fields.result : current.result,
    error: fields.error !== undefined ? fields.error : current.error,
    updatedAt: now,
  };
}

/**
 * A chain applied through a store's own compare-and-set: the receipt its last step made, or the
 * stored one when that step did not apply (someone else moved it).
 */
export function applyChain(chain: TransitionChain, transition: ReceiptStore["transition"], byId: ReceiptStore["byId"]): StoredReceipt {
  let r = chain.current;
  let last: StoredReceipt | undefined;
  for (const step of chain.steps) {
    last = transition(r, step.to, step.fields, chain.now);
    r = last ?? r;
  }
  return last ?? byId(r.operationId) ?? r;
}

/** Whether a transition is an event: its state or its effect changed. */
export const isEvent = (before: StoredReceipt, after: StoredReceipt): boolean => before.state !== after.state || before.effectState !== after.effectState;
