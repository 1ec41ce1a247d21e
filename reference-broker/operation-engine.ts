import { LomiError } from "../protocol/errors.js";
import type { NativeProgress } from "../protocol/native-bridge.js";
import type { Random, Timers } from "../protocol/ports.js";
import { canTransition, isSettled, type OperationState } from "../protocol/states.js";
import type { InputOf, OperationContract } from "../protocol/tool-contract.js";
import { fingerprintOf, receiptKeyOf } from "./fingerprint.js";
import type { FaultHooks } from "./fault-hooks.js";
import { GroupCommit } from "./group-commit.js";
import type { NativeClock } from "./native-clock.js";
import type { NativeBridge } from "./native-bridge.js";
import type { ReceiptStore, Reservation, StoredEpoch, StoredReceipt, TransitionChain, TransitionFields, TransitionStep } from "./receipt-store.js";
import { REFERENCE_POLICY, type BrokerPolicy } from "./broker-policy.js";

/** Fields that make up the retry identity rather than the payload. */
const IDENTITY_FIELDS = new Set(["retryEpoch", "requestKey", "projectId"]);

/** The refusal of a request whose identity already names `prior`, with other arguments. */
export const idempotencyConflict = (prior: Pick<StoredReceipt, "requestKey" | "operationId">) =>
  new LomiError(
    "IDEMPOTENCY_CONFLICT",
    `requestKey ${prior.requestKey} already names operation ${prior.operationId} with other arguments; an intentionally different operation needs a fresh requestKey and fresh observations.`,
    { operationId: prior.operationId },
  );

export interface Admitter {
  pairingId: string;
  connectionId: string;
}

export interface Admission {
  receipt: StoredReceipt;
  duplicate: boolean;
}

/**
 * Admission, dispatch and settlement of operations: reserve durably, then dispatch under a permit;
 * learn native progress when asked; never dispatch a receipt twice.
 */
export class OperationEngine {
  /** Dispatches whose HTTP call has not returned yet (their native status is not meaningful yet), and their end. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /**
   * Dispatches Lomi received whose answer the store could not record, the receipt still queued there
   * (BrokerPolicy.recordRunning "when-lomi-runs"). Lomi may run them: they are never sent again, are
   * learnt and cancelled through Lomi, and keep their target busy. Memory is enough: a reopening turns
   * every unfinished receipt, queued ones included, outcome_unknown, as for any dispatch that reached Lomi.
   */
  private readonly unrecorded = new Set<string>();
  /** When (on `timers`) each operation admitted here may have its settlement recorded (BrokerPolicy.settleAfterMs). */
  private readonly settleDue = new Map<string, number>();
  /** Background settlements still to fire, by their cancel: cleared at close, so none reads a closed store. */
  private readonly settleTimers = new Set<() => void>();
  /** Concurrent admissions share one durable write of their reservations. */
  private readonly commits: GroupCommit<Reservation, { receipt: StoredReceipt; inserted: boolean }>;
  /** What Lomi says of operations, learned in the same turn, shares one durable write too. */
  private readonly settlements: GroupCommit<TransitionChain, { receipt: StoredReceipt }>;

  constructor(
    private readonly store: ReceiptStore,
    private readonly native: NativeBridge,
    private readonly clock: NativeClock,
    private readonly random: Random,
    /** The broker's own delays (BrokerPolicy.settleAfterMs) are kept on these, not on Lomi's clock. */
    private readonly timers: Timers,
    private readonly brokerInstanceId: string,
    private readonly hooks: FaultHooks,
    private readonly policy: BrokerPolicy = REFERENCE_POLICY,
  ) {
    this.commits = new GroupCommit((reservations) => store.reserveAll(reservations));
    this.settlements = new GroupCommit((chains) => store.transitionAll(chains).map((receipt) => ({ receipt })));
  }

  /** Lomi's clock says the epoch's 24 hours are over. */
  private refuseExpired(epoch: StoredEpoch, now: number): void {
    if (now >= epoch.expiresAt) {
      throw new LomiError("RETRY_EPOCH_EXPIRED", `This retryEpoch expired at ${new Date(epoch.expiresAt).toISOString()}; call lomi_connect for a new one.`, {
        field: "retryEpoch",
      });
    }
  }

  private epochWorkspace(epoch: StoredEpoch, workspaceId: string): void {
    if (epoch.workspaceId !== workspaceId) {
      throw new LomiError("RETRY_EPOCH_INVALID", `This retryEpoch was issued for workspace ${epoch.workspaceId}, not ${workspaceId}.`, { field: "retryEpoch" });
    }
  }

  /** The project an operation is anchored to: explicit, or the epoch's only approved project. */
  private resolveProject(epoch: StoredEpoch, projectId: string | undefined): string {
    if (projectId !== undefined) {
      if (!epoch.projectIds.includes(projectId)) {
        throw new LomiError("NOT_FOUND", `Project ${projectId} is not approved in workspace ${epoch.workspaceId} for this connection.`, { field: "projectId" });
      }
      return projectId;
    }
    const [only, ...others] = epoch.projectIds;
    if (only !== undefined && others.length === 0) return only;
    throw new LomiError(
      "PROJECT_REQUIRED",
      `The connection has ${epoch.projectIds.length} approved projects in ${epoch.workspaceId}; name the anchor projectId.`,
      { field: "projectId" },
    );
  }

  /** A receipt this engine wrote: gone only when a deliberate reconcile forgot it meanwhile, which nothing here can answer for. */
  private stored(operationId: string): StoredReceipt {
    const receipt = this.store.byId(operationId);
    if (!receipt) throw new LomiError("INTERNAL", `Operation ${operationId} left the receipt store while the broker was working on it.`);
    return receipt;
  }

  /** An epoch this pairing was given, from any broker instance: enough to find receipts, not to submit. */
  epochOf(pairingId: string, retryEpoch: string): StoredEpoch {
    const epoch = this.store.epoch(retryEpoch);
    if (!epoch || epoch.pairingId !== pairingId) {
      throw new LomiError("RETRY_EPOCH_INVALID", "This retryEpoch was not issued to this session; call lomi_connect for a fresh one.", { field: "retryEpoch" });
    }
    return epoch;
  }

  keyOf(pairingId: string, retryEpoch: string, tool: string, requestKey: string, projectId: string | undefined): string {
    const epoch = this.epochOf(pairingId, retryEpoch);
    return receiptKeyOf({ pairingId, retryEpoch, projectId: this.resolveProject(epoch, projectId), tool, requestKey });
  }

  /** Admits one operation, its arguments as its contract's input schema parsed them. */
  async admit<C extends OperationContract>(who: Admitter, contract: C, args: InputOf<C>): Promise<Admission> {
    const { retryEpoch, requestKey, workspaceId } = args;
    const epoch = this.epochOf(who.pairingId, retryEpoch);
    if (this.policy.firstCheck === "epoch") this.epochWorkspace(epoch, workspaceId);
    const projectId = this.resolveProject(epoch, args.projectId);
    const receiptKey = receiptKeyOf({ pairingId: who.pairingId, retryEpoch, projectId, tool: contract.name, requestKey });
    const payload = Object.fromEntries(Object.entries(args).filter(([k]) => !IDENTITY_FIELDS.has(k)));
    const fingerprint = fingerprintOf(
      payload,
      contract.generationField ? args[contract.generationField] : null,
      contract.revisionField ? args[contract.revisionField] : null,
    );

    // A known identity answers from its receipt before anything else: no new authority is needed.
    const prior = this.store.byKey(receiptKey);
    if (prior) return this.answerPrior(prior, fingerprint);
    if (this.policy.firstCheck === "target") {
      await this.native.workspace(who.pairingId, workspaceId); // an unknown target (a display name) is NOT_FOUND
      this.epochWorkspace(epoch, workspaceId);
    }

    if (epoch.brokerInstanceId !== this.brokerInstanceId || epoch.connectionId !== who.connectionId) {
      throw new LomiError(
        "RETRY_EPOCH_INVALID",
        "This retryEpoch belongs to an earlier broker instance or another connection and grants no new submission; call lomi_connect.",
        { field: "retryEpoch" },
      );
    }
    const target = { pairingId: who.pairingId, tool: contract.name, workspaceId, projectId, args };
    let now: number;
    try {
      // Lomi's time rides on the check's reply: one native round trip fewer per admission.
      const checked = await this.native.check(target);
      now = checked.now ?? (await this.clock.now());
    } catch (error) {
      // An expired epoch is the answer whatever the validators said, as when time was read before the check.
      const at = await this.clock.now().catch(() => undefined);
      if (at !== undefined) this.refuseExpired(epoch, at);
      // An identical request admitted meanwhile may have moved the world this one was decided on: its receipt answers both.
      const racer = this.store.byKey(receiptKey);
      if (racer) return this.answerPrior(racer, fingerprint);
      throw error;
    }
    this.refuseExpired(epoch, now);

    const receipt: StoredReceipt = {
      operationId: this.random.id("op-"),
      receiptKey,
      fingerprint,
      pairingId: who.pairingId,
      retryEpoch,
      projectId,
      workspaceId,
      tool: contract.name,
      requestKey,
      serializeKey: `${contract.serializeOn}:${String(args[contract.serializeOn])}`,
      args,
      state: "queued",
      effectState: "none",
      result: null,
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    // Durable before anything is dispatched; claimed (running) in the same write when nothing on its target is ahead.
    const { receipt: reserved, inserted } = await this.commits.add({ receipt, claim: this.policy.recordRunning === "before-dispatch" });
    if (!inserted) return this.answerPrior(reserved, fingerprint);
    this.settleLater(reserved);
    this.hooks.crashAt("crash-after-reserve");
    if (reserved.state === "running") return { receipt: await this.send(reserved, now), duplicate: false };
    await this.pump(reserved.serializeKey, now);
    return { receipt: this.stored(reserved.operationId), duplicate: false };
  }

  private async answerPrior(prior: StoredReceipt, fingerprint: string): Promise<Admission> {
    if (prior.fingerprint !== fingerprint) throw idempotencyConflict(prior);
    return { receipt: await this.refresh(prior), duplicate: true };
  }

  /**
   * Dispatches the oldest queued operation on a target once nothing dispatched there is unsettled.
   * `now` is Lomi's time when the caller has just read it (one clock call per admission, not two).
   */
  private async pump(serializeKey: string, now?: number): Promise<void> {
    for (const r of this.store.unsettledOn(serializeKey)) {
      if (r.state !== "queued" || this.unrecorded.has(r.operationId)) await this.learn(r);
    }
    const pending = this.store.unsettledOn(serializeKey);
    const head = pending[0];
    if (!head || head.state !== "queued") return;
    await this.dispatch(head, now ?? (await this.clock.now()));
  }

  /**
   * Under BrokerPolicy.settleAfterMs, a settlement is recorded no sooner than a random delay after
   * admission, by a background read then: the broker settles in its own time.
   */
  private settleLater(r: StoredReceipt): void {
    const [min, max] = this.policy.settleAfterMs;
    if (max <= 0) return;
    const delay = min + this.random.int(max - min + 1);
    this.settleDue.set(r.operationId, this.timers.now() + delay);
    const cancel = this.timers.after(delay, () => {
      this.settleTimers.delete(cancel);
      this.settleDue.delete(r.operationId);
      const latest = this.store.byId(r.operationId);
      return latest && this.refresh(latest).catch(() => undefined); // Lomi away: the next read learns it
    });
    this.settleTimers.add(cancel);
  }

  /** Stops background work before the store closes. */
  close(): void {
    for (const cancel of this.settleTimers) cancel();
    this.settleTimers.clear();
  }

  private async dispatch(queued: StoredReceipt, now: number): Promise<void> {
    // The caller's copy may be stale (another read dispatched it meanwhile): only a receipt still queued, and never sent, goes.
    const sent = this.inFlight.has(queued.operationId) || this.unrecorded.has(queued.operationId);
    if (sent || this.store.byId(queued.operationId)?.state !== "queued") return;
    // The claim: recording running first makes this caller the only one to dispatch (compare-and-set);
    // otherwise the receipt stays queued until Lomi says how the work goes, claimed in memory meanwhile.
    const claimed = this.policy.recordRunning === "before-dispatch" ? this.store.transition(queued, "running", {}, now) : queued;
    if (claimed) await this.send(claimed, now);
  }

  /**
   * Sends the dispatch of a receipt this caller has claimed, and records what Lomi answers (a
   * settlement at once included). While it is in flight nobody else writes the receipt, so the
   * claimed copy is current: no re-read.
   */
  private async send(claimed: StoredReceipt, now: number): Promise<StoredReceipt> {
    let done!: () => void;
    this.inFlight.set(claimed.operationId, new Promise<void>((resolve) => (done = resolve)));
    const release = () => {
      if (this.inFlight.delete(claimed.operationId)) done();
    };
    try {
      let progress: NativeProgress;
      try {
        progress = await this.native.dispatch(
          { pairingId: claimed.pairingId, tool: claimed.tool, workspaceId: claimed.workspaceId, projectId: claimed.projectId, args: claimed.args },
          { operationId: claimed.operationId, receiptKey: claimed.receiptKey, fingerprint: claimed.fingerprint },
        );
      } catch (error) {
        // The reply was lost: the effect may exist. Stay running and ask Lomi later.
        const lost = error instanceof LomiError && error.code === "NATIVE_UNAVAILABLE";
        const e = error instanceof LomiError ? error : new LomiError("NATIVE_FAILURE", String(error));
        const recorded = lost
          ? this.store.transition(claimed, "running", { effectState: "unknown" }, now)
          : this.store.transition(claimed, "failed", { effectState: "none", error: { code: e.code, message: e.message } }, now);
        return recorded ?? this.stored(claimed.operationId);
      }
      // Recorded running before the dispatch, the receipt is nobody else's to send: the claim ends here. Still
      // queued in the store (BrokerPolicy.recordRunning), it stays claimed until what Lomi answered is written,
      // or a read in between would find it queued and unclaimed and dispatch it again under the same permit.
      if (claimed.state !== "queued") release();
      try {
        this.hooks.crashAt("crash-after-dispatch");
        return await this.apply(claimed, progress, now);
      } catch (error) {
        // Lomi has it though its answer was not written: still queued in the store, it is dispatched work all the same.
        if (claimed.state === "queued") this.unrecorded.add(claimed.operationId);
        throw error;
      }
    } finally {
      release();
    }
  }

  /** Asks Lomi where a dispatched operation stands, and records what it says. */
  private async learn(r: StoredReceipt): Promise<StoredReceipt> {
    if (isSettled(r.state) || (r.state === "queued" && !this.unrecorded.has(r.operationId)) || this.inFlight.has(r.operationId)) return r;
    let progress: NativeProgress;
    try {
      progress = await this.native.status(r.operationId);
    } catch {
      return r; // Lomi unreachable: nothing learned, nothing assumed.
    }
    const now = await this.clock.now().catch(() => r.updatedAt);
    if (progress.phase === "settled") this.hooks.crashAt("crash-before-settle");
    return this.recorded(await this.apply(this.stored(r.operationId), progress, now));
  }

  /** A receipt the store no longer says is queued needs no memory of an unrecorded dispatch. */
  private recorded(r: StoredReceipt): StoredReceipt {
    if (r.state !== "queued") this.unrecorded.delete(r.operationId);
    return r;
  }

  /**
   * Records what Lomi says of a receipt as the moves it makes, in the next group write of
   * settlements: durable before any caller is told, and a failed write loses nothing (Lomi still
   * holds the settlement; the next read learns it again).
   */
  private async apply(r0: StoredReceipt, progress: NativeProgress, now: number): Promise<StoredReceipt> {
    if (isSettled(r0.state)) return r0; // A late native settlement never changes a settled receipt.
    const steps: TransitionStep[] = [];
    let state: OperationState = r0.state;
    const move = (to: OperationState, fields: TransitionFields = {}) => {
      steps.push({ to, fields });
      state = to;
    };
    // A receipt still queued when Lomi answers its dispatch (BrokerPolicy.recordRunning): the first step Lomi reports.
    if (state === "queued" && progress.phase !== "unknown") move(progress.phase === "awaiting_user" ? "awaiting_user" : "running");
    // A settlement is not recorded before it is due (BrokerPolicy.settleAfterMs).
    const due = this.settleDue.get(r0.operationId);
    if (progress.phase === "settled") {
      if (due === undefined || this.timers.now() >= due) {
        // The user approved and the work ran between two reads (it settled succeeded, or with effects): the receipt says it ran.
        if (state === "awaiting_user" && canTransition("running", progress.state) && (progress.state === "succeeded" || progress.effectState !== "none"))
          move("running");
        move(progress.state, { effectState: progress.effectState, result: progress.result, error: progress.error });
      }
    } else if (progress.phase === "unknown") {
      move("failed", { effectState: "none", error: { code: "NATIVE_FAILURE", message: "Lomi has no record of this dispatch: it never arrived." } });
    } else {
      // A cancelling receipt stays cancelling until it settles; otherwise follow Lomi's phase.
      move(state === "cancelling" ? "cancelling" : progress.phase, { effectState: progress.effectState });
    }
    if (steps.length === 0) return r0;
    return (await this.settlements.add({ current: r0, steps, now })).receipt;
  }

  /** The receipt as it stands now, after learning native progress and moving its queue along. */
  async refresh(r: StoredReceipt): Promise<StoredReceipt> {
    if (isSettled(r.state)) return r;
    await this.pump(r.serializeKey);
    return this.stored(r.operationId);
  }

  async refreshWorkspace(pairingId: string, workspaceId: string): Promise<void> {
    const keys = new Set(this.store.unsettledIn(pairingId, workspaceId).map((r) => r.serializeKey));
    for (const key of keys) await this.pump(key);
  }

  async cancel(r0: StoredReceipt): Promise<{ outcome: "cancelled" | "cancelling" | "already_settled"; receipt: StoredReceipt }> {
    // A dispatch on its way to Lomi is not queued work any more, whatever the receipt says yet.
    await this.inFlight.get(r0.operationId);
    const r = await this.refresh(this.store.byId(r0.operationId) ?? r0);
    if (isSettled(r.state)) return { outcome: "already_settled", receipt: r };
    const now = await this.clock.now();
    // Still queued while BrokerPolicy.recordRunning waits for Lomi's word, a receipt whose dispatch was sent
    // since is running work all the same: its cancellation goes to Lomi.
    if (r.state === "queued" && this.inFlight.has(r.operationId)) return this.cancel(this.stored(r.operationId)); // on its way now
    if (r.state === "queued" && !this.unrecorded.has(r.operationId)) {
      // Never sent: nothing reached Lomi.
      const cancelled = this.store.transition(r, "cancelled", { effectState: "none" }, now);
      if (cancelled) {
        await this.pump(r.serializeKey);
        return { outcome: "cancelled", receipt: cancelled };
      }
      return this.cancel(this.stored(r.operationId)); // It was dispatched meanwhile.
    }
    const cancelling = r.state === "cancelling" ? r : this.requestCancellation(r, now);
    if (!cancelling) return this.cancel(this.stored(r.operationId));
    let progress: NativeProgress;
    try {
      progress = await this.native.cancel(r.operationId);
    } catch {
      return { outcome: "cancelling", receipt: cancelling };
    }
    const after = await this.apply(cancelling, progress, now);
    await this.pump(r.serializeKey);
    const latest = this.stored(after.operationId);
    const outcome = latest.state === "cancelled" ? "cancelled" : latest.state === "cancelling" ? "cancelling" : "already_settled";
    return { outcome, receipt: latest };
  }

  /**
   * Records that cancellation of dispatched work was requested, before Lomi is asked. A receipt still
   * queued whose dispatch Lomi received passes through running, work dispatched (queued → cancelling
   * is no transition); undefined when another caller moved the receipt first.
   */
  private requestCancellation(r: StoredReceipt, now: number): StoredReceipt | undefined {
    const dispatched = r.state === "queued" ? this.store.transition(r, "running", {}, now) : r;
    const cancelling = dispatched && this.store.transition(dispatched, "cancelling", {}, now);
    return cancelling && this.recorded(cancelling);
  }
}
