import type { BrokerPolicy } from "./broker-policy.js";
import { takePidLock } from "./store-lock.js";
import Database from "better-sqlite3";
import { LomiError } from "../protocol/errors.js";
import { canTransition, isSettled, OPERATION_STATES, EFFECT_STATES, SETTLED_STATES, type EffectState, type OperationState } from "../protocol/states.js";

export const RECEIPT_CAPACITY = 4096;
export const EPOCH_CAPACITY = 4096;

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

const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(",");

const SCHEMA = `
CREATE TABLE IF NOT EXISTS receipts (
  operation_id TEXT PRIMARY KEY,
  receipt_key TEXT NOT NULL UNIQUE,
  fingerprint TEXT NOT NULL,
  pairing_id TEXT NOT NULL,
  retry_epoch TEXT NOT NULL,
  project_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  request_key TEXT NOT NULL,
  serialize_key TEXT NOT NULL,
  args TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN (${inList(OPERATION_STATES)})),
  effect_state TEXT NOT NULL CHECK (effect_state IN (${inList(EFFECT_STATES)})),
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS receipts_by_target ON receipts (serialize_key, state);
CREATE TABLE IF NOT EXISTS retry_epochs (
  retry_epoch TEXT PRIMARY KEY,
  pairing_id TEXT NOT NULL,
  broker_instance_id TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  project_ids TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  operation_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  pairing_id TEXT NOT NULL,
  previous_state TEXT,
  state TEXT NOT NULL,
  effect_state TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_workspace ON events (pairing_id, workspace_id, sequence);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

interface ReceiptRow {
  operation_id: string;
  receipt_key: string;
  fingerprint: string;
  pairing_id: string;
  retry_epoch: string;
  project_id: string;
  workspace_id: string;
  tool: string;
  request_key: string;
  serialize_key: string;
  args: string;
  state: OperationState;
  effect_state: EffectState;
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

function fromRow(row: ReceiptRow): StoredReceipt {
  return {
    operationId: row.operation_id,
    receiptKey: row.receipt_key,
    fingerprint: row.fingerprint,
    pairingId: row.pairing_id,
    retryEpoch: row.retry_epoch,
    projectId: row.project_id,
    workspaceId: row.workspace_id,
    tool: row.tool,
    requestKey: row.request_key,
    serializeKey: row.serialize_key,
    args: JSON.parse(row.args) as Record<string, unknown>,
    state: row.state,
    effectState: row.effect_state,
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    error: row.error === null ? null : (JSON.parse(row.error) as { code: string; message: string }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface TransitionFields {
  effectState?: EffectState;
  result?: Record<string, unknown> | null;
  error?: { code: string; message: string } | null;
}

/**
 * The broker's durable receipts, retry epochs and events in one SQLite file (WAL, synchronous=FULL).
 * Every state change is a compare-and-set on the previous state, written with its event in one
 * transaction, so a crash leaves either both or neither.
 */
export class ReceiptStore {
  private readonly db: Database.Database;

  /** Set by the fail-reserve fault hook: the next reservation's write fails before it commits. */
  failNextReservation = false;

  private constructor(
    db: Database.Database,
    private readonly releaseLock: (() => void) | undefined = undefined,
  ) {
    this.db = db;
  }

  /**
   * Opens (or creates) the store, takes it exclusively for this broker instance, and turns every
   * unfinished operation into outcome_unknown: after a reopening nothing is replayed.
   */
  static open(file: string, now: number, lock: BrokerPolicy["storeLock"] = "sqlite-exclusive"): { store: ReceiptStore; recovered: number; openings: number } {
    let db: Database.Database;
    const release = lock === "pid-file" ? takePidLock(file) : undefined;
    try {
      db = new Database(file, { timeout: 0 });
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      if (lock === "sqlite-exclusive") {
        db.pragma("locking_mode = EXCLUSIVE");
        db.exec(SCHEMA);
        // The first write takes the exclusive lock for as long as this connection lives.
        db.exec("BEGIN IMMEDIATE; COMMIT;");
      } else {
        db.exec(SCHEMA);
      }
    } catch (error) {
      release?.();
      const busy = error instanceof Error && /SQLITE_BUSY|database is locked/i.test(`${(error as { code?: string }).code} ${error.message}`);
      throw new LomiError(
        "STORE_UNAVAILABLE",
        busy ? `The receipt store ${file} is in use by another broker instance.` : `The receipt store ${file} cannot be opened: ${(error as Error).message}`,
      );
    }
    const store = new ReceiptStore(db, release);
    const recovered = store.recoverUnfinished(now);
    const openings = (
      db.prepare("INSERT INTO meta (key, value) VALUES ('openings', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1 RETURNING value").get() as { value: number }
    ).value;
    return { store, recovered, openings };
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.releaseLock?.();
  }

  private recoverUnfinished(now: number): number {
    const unfinished = this.db
      .prepare(`SELECT * FROM receipts WHERE state NOT IN (${inList(SETTLED_STATES)}) ORDER BY rowid`)
      .all() as ReceiptRow[];
    const tx = this.db.transaction(() => {
      for (const row of unfinished) this.transitionInTx(fromRow(row), "outcome_unknown", { effectState: "unknown" }, now);
    });
    tx();
    return unfinished.length;
  }

  private guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof LomiError) throw error;
      throw new LomiError("STORE_UNAVAILABLE", `The receipt store could not ${what}: ${(error as Error).message}`);
    }
  }

  // Receipts --------------------------------------------------------------------------------------

  byKey(receiptKey: string): StoredReceipt | undefined {
    const row = this.db.prepare("SELECT * FROM receipts WHERE receipt_key = ?").get(receiptKey) as ReceiptRow | undefined;
    return row && fromRow(row);
  }

  byId(operationId: string): StoredReceipt | undefined {
    const row = this.db.prepare("SELECT * FROM receipts WHERE operation_id = ?").get(operationId) as ReceiptRow | undefined;
    return row && fromRow(row);
  }

  receiptCount(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM receipts").get() as { n: number }).n;
  }

  /**
   * Reserves a receipt (state queued) unless one with the same key exists already; either way
   * answers the receipt that now holds the key. Durable before it returns.
   */
  reserve(receipt: StoredReceipt): { receipt: StoredReceipt; inserted: boolean } {
    return this.guard("reserve the receipt", () =>
      this.db.transaction(() => {
        const existing = this.byKey(receipt.receiptKey);
        if (existing) return { receipt: existing, inserted: false };
        if (this.receiptCount() >= RECEIPT_CAPACITY) {
          throw new LomiError("RESOURCE_EXHAUSTED", `The receipt store holds ${RECEIPT_CAPACITY} receipts, its limit; reconcile it deliberately (lomi_store_reconcile) before new operations.`);
        }
        this.db
          .prepare(
            `INSERT INTO receipts (operation_id, receipt_key, fingerprint, pairing_id, retry_epoch, project_id, workspace_id, tool,
              request_key, serialize_key, args, state, effect_state, result, error, created_at, updated_at)
             VALUES (@operationId, @receiptKey, @fingerprint, @pairingId, @retryEpoch, @projectId, @workspaceId, @tool,
              @requestKey, @serializeKey, @args, @state, @effectState, NULL, NULL, @createdAt, @updatedAt)`,
          )
          .run({ ...receipt, args: JSON.stringify(receipt.args) });
        if (this.failNextReservation) {
          this.failNextReservation = false;
          // What the driver reports when the disk refuses the write; the transaction rolls back.
          throw new Database.SqliteError("disk I/O error (fault hook fail-reserve)", "SQLITE_IOERR");
        }
        this.insertEvent(receipt, null, receipt.createdAt);
        return { receipt, inserted: true };
      }).immediate(),
    );
  }

  /** Unsettled receipts sharing a serialization target, oldest first. */
  unsettledOn(serializeKey: string): StoredReceipt[] {
    return (
      this.db
        .prepare(`SELECT * FROM receipts WHERE serialize_key = ? AND state NOT IN (${inList(SETTLED_STATES)}) ORDER BY rowid`)
        .all(serializeKey) as ReceiptRow[]
    ).map(fromRow);
  }

  unsettledIn(pairingId: string, workspaceId: string): StoredReceipt[] {
    return (
      this.db
        .prepare(`SELECT * FROM receipts WHERE pairing_id = ? AND workspace_id = ? AND state NOT IN (${inList(SETTLED_STATES)}) ORDER BY rowid`)
        .all(pairingId, workspaceId) as ReceiptRow[]
    ).map(fromRow);
  }

  /**
   * Compare-and-set from the receipt's current state. Answers the updated receipt, or undefined when
   * the state moved underneath (someone else won) or the transition is not legal.
   */
  transition(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined {
    return this.guard("record a transition", () => this.db.transaction(() => this.transitionInTx(current, to, fields, now)).immediate());
  }

  private transitionInTx(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined {
    const sameState = current.state === to;
    if (!sameState && !canTransition(current.state, to)) return undefined;
    if (sameState && isSettled(to)) return undefined;
    const next: StoredReceipt = {
      ...current,
      state: to,
      effectState: fields.effectState ?? current.effectState,
      result: fields.result !== undefined ? fields.result : current.result,
      error: fields.error !== undefined ? fields.error : current.error,
      updatedAt: now,
    };
    const changed = this.db
      .prepare(
        `UPDATE receipts SET state = ?, effect_state = ?, result = ?, error = ?, updated_at = ?
         WHERE operation_id = ? AND state = ? AND effect_state = ?`,
      )
      .run(
        next.state,
        next.effectState,
        next.result === null ? null : JSON.stringify(next.result),
        next.error === null ? null : JSON.stringify(next.error),
        now,
        current.operationId,
        current.state,
        current.effectState,
      ).changes;
    if (changed !== 1) return undefined;
    if (!sameState || next.effectState !== current.effectState) this.insertEvent(next, current.state, now);
    return next;
  }

  // Events ----------------------------------------------------------------------------------------

  private insertEvent(r: StoredReceipt, previous: OperationState | null, at: number): void {
    this.db
      .prepare(
        `INSERT INTO events (operation_id, tool, workspace_id, pairing_id, previous_state, state, effect_state, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.operationId, r.tool, r.workspaceId, r.pairingId, previous, r.state, r.effectState, at);
  }

  events(pairingId: string, workspaceId: string, after: number, limit: number): { events: StoredEvent[]; hasMore: boolean } {
    const rows = this.db
      .prepare(
        `SELECT sequence, operation_id, tool, workspace_id, previous_state, state, effect_state, at FROM events
         WHERE pairing_id = ? AND workspace_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
      )
      .all(pairingId, workspaceId, after, limit + 1) as Array<Record<string, unknown>>;
    const events = rows.slice(0, limit).map((r) => ({
      sequence: r.sequence as number,
      operationId: r.operation_id as string,
      tool: r.tool as string,
      workspaceId: r.workspace_id as string,
      previousState: (r.previous_state as OperationState | null) ?? null,
      state: r.state as OperationState,
      effectState: r.effect_state as EffectState,
      at: r.at as number,
    }));
    return { events, hasMore: rows.length > limit };
  }

  // Capacity and maintenance ---------------------------------------------------------------------

  status(now: number) {
    const one = (sql: string, ...params: unknown[]) => (this.db.prepare(sql).get(...params) as { n: number }).n;
    return {
      receipts: { count: this.receiptCount(), limit: RECEIPT_CAPACITY },
      retryEpochs: {
        count: one("SELECT count(*) AS n FROM retry_epochs"),
        limit: EPOCH_CAPACITY,
        expired: one("SELECT count(*) AS n FROM retry_epochs WHERE expires_at <= ?", now),
      },
      unfinished: one(`SELECT count(*) AS n FROM receipts WHERE state NOT IN (${inList(SETTLED_STATES)})`),
      outcomeUnknown: one("SELECT count(*) AS n FROM receipts WHERE state = 'outcome_unknown'"),
    };
  }

  /**
   * Deliberate maintenance: removes settled receipts last changed at or before `settledBefore`
   * (outcome_unknown excepted), the named receipts of this pairing whatever their state, their
   * events, and expired epochs that no remaining receipt refers to. One transaction.
   */
  reconcile(now: number, settledBefore: number, pairingId: string, forget: readonly string[]) {
    return this.guard("reconcile", () =>
      this.db.transaction(() => {
        const named = forget.length === 0 ? "0" : `operation_id IN (${forget.map(() => "?").join(",")}) AND pairing_id = ?`;
        const receipts = this.db
          .prepare(`DELETE FROM receipts WHERE (state IN ('succeeded','failed','cancelled') AND updated_at <= ?) OR (${named})`)
          .run(settledBefore, ...(forget.length === 0 ? [] : [...forget, pairingId])).changes;
        const events = this.db.prepare("DELETE FROM events WHERE operation_id NOT IN (SELECT operation_id FROM receipts)").run().changes;
        const retryEpochs = this.db
          .prepare("DELETE FROM retry_epochs WHERE expires_at <= ? AND retry_epoch NOT IN (SELECT retry_epoch FROM receipts)")
          .run(now).changes;
        return { receipts, retryEpochs, events };
      }).immediate(),
    );
  }

  // Retry epochs ----------------------------------------------------------------------------------

  insertEpoch(epoch: StoredEpoch): void {
    this.guard("record the retry epoch", () =>
      this.db.transaction(() => {
        const n = (this.db.prepare("SELECT count(*) AS n FROM retry_epochs").get() as { n: number }).n;
        if (n >= EPOCH_CAPACITY) {
          throw new LomiError("RESOURCE_EXHAUSTED", `The receipt store holds ${EPOCH_CAPACITY} retry epochs, its limit; reconnecting does not clear history. Reconcile the store deliberately.`);
        }
        this.db
          .prepare(
            `INSERT INTO retry_epochs (retry_epoch, pairing_id, broker_instance_id, connection_id, workspace_id, project_ids, issued_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(epoch.retryEpoch, epoch.pairingId, epoch.brokerInstanceId, epoch.connectionId, epoch.workspaceId, JSON.stringify(epoch.projectIds), epoch.issuedAt, epoch.expiresAt);
      }).immediate(),
    );
  }

  epoch(retryEpoch: string): StoredEpoch | undefined {
    const row = this.db.prepare("SELECT * FROM retry_epochs WHERE retry_epoch = ?").get(retryEpoch) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    return {
      retryEpoch: row.retry_epoch as string,
      pairingId: row.pairing_id as string,
      brokerInstanceId: row.broker_instance_id as string,
      connectionId: row.connection_id as string,
      workspaceId: row.workspace_id as string,
      projectIds: JSON.parse(row.project_ids as string) as string[],
      issuedAt: row.issued_at as number,
      expiresAt: row.expires_at as number,
    };
  }
}
