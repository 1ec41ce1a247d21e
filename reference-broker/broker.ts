import { seededRandom, systemTimers, type Clock, type Random, type Timers } from "../protocol/ports.js";
import { REFERENCE_POLICY, type BrokerPolicy } from "./broker-policy.js";
import { FailingReservations } from "./failing-reservations.js";
import { BrokerCrashed, FaultHooks, type FaultPoint } from "./fault-hooks.js";
import type { NativeClock } from "./native-clock.js";
import type { NativeBridge } from "./native-bridge.js";
import { NativeClient, type Fetch } from "./native-client.js";
import { OperationEngine } from "./operation-engine.js";
import { DEFAULT_STORE_LIMITS, type OpenedStore, type ReceiptStore, type StoredEpoch, type StoreLimits } from "./receipt-store.js";
import { GroupCommit } from "./group-commit.js";
import { openSqliteStore, type SqliteStoreOptions } from "./sqlite-receipt-store.js";
import { InputHistories } from "./input-histories.js";
import { BrokerSession } from "./session.js";

/**
 * The seam through which a deliberately broken broker (mutants/) swaps one part of the reference
 * broker for a defective one, so the suite can be shown to catch it, and a legal variant (variants/)
 * makes other choices the rules allow, so the suite can be shown to pass it. The reference broker passes none.
 */
export interface BrokerParts {
  /**
   * Opens the receipt store (default openSqliteStore with `options`); may wrap it in a
   * DelegatingReceiptStore that changes some of its answers, or doctor the file first.
   */
  openStore?: (file: string, now: number, native: NativeBridge, options: Required<SqliteStoreOptions>) => OpenedStore | Promise<OpenedStore>;
  /** Makes the session of one MCP connection (default BrokerSession); may rewrite arguments or replies. */
  session?: (core: BrokerCore, clientName: () => string) => BrokerSession;
  /** Other legal choices where the rules leave one open (variants/); the rest stay REFERENCE_POLICY's. */
  policy?: Partial<BrokerPolicy>;
}

export interface BrokerOptions {
  /** Base URL of the native bridge (LOMI_NATIVE_URL). */
  nativeUrl: string;
  /** The SQLite receipt store (LOMI_STORE_PATH); kept across restarts. */
  storePath: string;
  /** Seeds operation IDs, epochs and connection IDs, so a run can be replayed. */
  seed: number;
  /**
   * The broker host's own clock, read only when Lomi's cannot be: at start, so that a store opens
   * (its recovery stamped) even while Lomi does not answer. The process entry point passes systemClock.
   */
  hostClock: Clock;
  /**
   * The broker's own delays (a background settlement, BrokerPolicy.settleAfterMs): real time by
   * default; the harness's in-process adapter keeps them (VirtualTimers), so a seeded run replays.
   */
  timers?: Timers;
  fetch?: Fetch;
  /** How the broker reaches Lomi; by default HTTP to `nativeUrl` through node:http (httpPost). */
  native?: NativeBridge;
  /** Receipts and retry epochs the store admits (default 4,096 each, the source's limits). */
  limits?: StoreLimits;
  /** The process this instance stands for (default this one): in-process, a second instance on the same store stands for another. */
  processId?: number;
  parts?: BrokerParts;
  /** Fault hooks to arm (LOMI_BROKER_FAULTS). */
  faults?: FaultPoint[];
  /** How a crash hook ends this instance; by default it is abandoned in-process. */
  crash?: (point: FaultPoint) => never;
}

/** What every session of one broker instance shares. */
export interface BrokerCore {
  readonly instanceId: string;
  readonly random: Random;
  readonly native: NativeBridge;
  readonly store: ReceiptStore;
  readonly engine: OperationEngine;
  /** Concurrent lomi_connect calls share one durable write of their retry epochs. */
  readonly epochs: GroupCommit<StoredEpoch, { recorded: true }>;
  /** Ordered-input histories: in memory, so a restart forgets them. */
  readonly inputs: InputHistories;
  readonly policy: BrokerPolicy;
}

/** One running instance of the reference broker: one store, one native bridge, many connections. */
export class Broker implements BrokerCore {
  readonly instanceId: string;
  readonly random: Random;
  readonly native: NativeBridge;
  readonly store: ReceiptStore;
  readonly engine: OperationEngine;
  readonly epochs: GroupCommit<StoredEpoch, { recorded: true }>;
  readonly inputs = new InputHistories();
  readonly policy: BrokerPolicy;
  /** The fault hook this instance crashed at, in-process (a process exits instead): it takes no more connections. */
  crashedAt: FaultPoint | undefined;
  /** How many unfinished operations the opening turned into outcome_unknown. */
  readonly recovered: number;
  private readonly parts: BrokerParts;

  private constructor(random: Random, native: NativeBridge, store: ReceiptStore, recovered: number, options: BrokerOptions, policy: BrokerPolicy) {
    this.parts = options.parts ?? {};
    this.policy = policy;
    this.random = random;
    this.instanceId = random.id("broker-");
    this.native = native;
    this.store = store;
    this.epochs = new GroupCommit((epochs) => store.insertEpochs(epochs));
    this.recovered = recovered;
    const crash =
      options.crash ??
      ((point: FaultPoint): never => {
        this.crashedAt = point;
        this.close();
        throw new BrokerCrashed(point);
      });
    const clock: NativeClock = native;
    this.engine = new OperationEngine(
      store,
      native,
      clock,
      random,
      options.timers ?? systemTimers,
      this.instanceId,
      new FaultHooks(options.faults ?? [], crash),
      policy,
    );
  }

  static async start(options: BrokerOptions): Promise<Broker> {
    const native = options.native ?? new NativeClient(options.nativeUrl, options.fetch);
    // Recovery stamps its transitions with Lomi's time when Lomi answers; the store must open regardless.
    const now = await native.now().catch(() => options.hostClock.now());
    const policy: BrokerPolicy = { ...REFERENCE_POLICY, ...options.parts?.policy };
    const open = options.parts?.openStore ?? ((file, at, _native, storeOptions) => openSqliteStore(file, at, storeOptions));
    const opened = await open(options.storePath, now, native, {
      lock: policy.storeLock,
      limits: options.limits ?? DEFAULT_STORE_LIMITS,
      pid: options.processId ?? process.pid,
    });
    const { recovered, openings } = opened;
    const faults = options.faults ?? [];
    // The fail-reserve hook is a decorator: the production store knows nothing of faults.
    const store = faults.includes("fail-reserve") ? new FailingReservations(opened.store) : opened.store;
    // Each opening of a store is a new instance with new identifiers, even under the same seed.
    const random = seededRandom((options.seed * 7919 + openings) >>> 0, policy.ids);
    return new Broker(random, native, store, recovered, options, policy);
  }

  newSession(clientName: () => string): BrokerSession {
    return this.parts.session?.(this, clientName) ?? new BrokerSession(this, clientName);
  }

  close(): void {
    this.engine.close();
    this.store.close();
  }
}
