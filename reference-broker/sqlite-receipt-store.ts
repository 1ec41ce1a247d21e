import type { BrokerPolicy } from "./broker-policy.js";
import { processIsAlive, takePidLock } from "./store-lock.js";
import { closeSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { z } from "zod";
import { LomiError, messageOf, systemCodeOf } from "../protocol/errors.js";
import { checkStoreFile, STORE_APPLICATION_ID, STORE_SCHEMA_VERSION } from "./store-file-check.js";
import { OPERATION_STATES, EFFECT_STATES, SETTLED_STATES, type EffectState, type OperationState } from "../protocol/states.js";
import {
  applyChain,
  DEFAULT_STORE_LIMITS,
  epochLimitReached,
  isEvent,
  receiptLimitReached,
  transitioned,
  type OpenedStore,
  type Reconciled,
  type ReceiptStore,
  type Reservation,
  type ReservationOutcome,
  type StoredEpoch,
  type StoredEvent,
  type StoredReceipt,
  type TransitionChain,
  type StoreLimits,
  type StoreStatus,
  type TransitionFields,
  type EpochOutcome,
} from "./receipt-store.js";

const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(",");

/** The store's tables, created as one transaction by the reference (a mutant creates them one by one). */
export const SCHEMA = `
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

function stampVersion(db: Database.Database): void {
  db.pragma(`application_id = ${STORE_APPLICATION_ID}`);
  db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
}

/**
 * Brings an older store to this schema. Version 0 (no application_id, no user_version) has this
 * schema's tables already: it only gains its identity. The checkpoint puts the new header into the
 * main file, where the next opening's check reads it.
 */
function migrate(db: Database.Database, from: number): void {
  if (from === 0) db.transaction(() => stampVersion(db))();
  db.pragma("wal_checkpoint(TRUNCATE)");
}

const CREATING = ".creating-";

/**
 * Makes a new store whole beside `file` and links it in: a broker killed at any moment of its first
 * start leaves no store or a complete one, never some of its tables (which the next start would
 * rightly refuse as not a Lomi store). What a killed creator left beside it is removed first.
 */
function createStoreFile(file: string): void {
  const dir = path.dirname(path.resolve(file));
  const scratch = `${file}${CREATING}${process.pid}`;
  if (newStoreBytes === undefined) {
    makeNewStore(scratch);
    newStoreBytes = readFileSync(scratch);
  } else {
    writeWhole(scratch, newStoreBytes);
  }
  try {
    linkSync(scratch, file);
  } catch (error) {
    if (systemCodeOf(error) !== "EEXIST") throw error;
    // An empty file or one with no tables is replaced whole; a store a racing creator linked in meanwhile is kept.
    if (checkStoreFile(file).kind === "new") renameSync(scratch, file);
  }
  rmSync(scratch, { force: true });
  const handle = openSync(dir, "r");
  try {
    fsyncSync(handle); // the new name survives a power cut
  } finally {
    closeSync(handle);
  }
}

/**
 * A new store's bytes, as this process first made one. A new store is always the same file, so a process
 * that makes many (the harness's in-process broker makes one per scenario) writes those bytes instead of
 * building it through SQLite again: a third of opening a new store's CPU.
 */
let newStoreBytes: Buffer | undefined;

/** An empty store of this schema at `scratch`, made through SQLite, its WAL checkpointed into it. */
function makeNewStore(scratch: string): void {
  const db = new Database(scratch);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.transaction(() => {
      stampVersion(db);
      db.exec(SCHEMA);
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(STORE_SCHEMA_VERSION);
    })();
  } finally {
    db.close(); // checkpoints the WAL into the file and removes it
  }
}

/** `bytes` at `file`, on the disk before this returns (as SQLite's synchronous=FULL would have put them). */
function writeWhole(file: string, bytes: Buffer): void {
  const handle = openSync(file, "w");
  try {
    for (let at = 0; at < bytes.length;) at += writeSync(handle, bytes, at);
    fsyncSync(handle);
  } finally {
    closeSync(handle);
  }
}

/** Removes what a creator killed before or after linking its store in left beside it (its scratch file). */
function removeAbandonedScratch(file: string): void {
  const dir = path.dirname(path.resolve(file));
  const base = path.basename(file);
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(`${base}${CREATING}`)) continue;
    const pid = Number(/^\d+/.exec(name.slice(base.length + CREATING.length))?.[0]);
    if (pid === process.pid || !processIsAlive(pid)) rmSync(path.join(dir, name), { force: true });
  }
}

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

/** The row of a retry epoch as SQLite answers it. */
interface EpochRow {
  retry_epoch: string;
  pairing_id: string;
  broker_instance_id: string;
  connection_id: string;
  workspace_id: string;
  project_ids: string;
  issued_at: number;
  expires_at: number;
}

/** The row of an event, as the events statement selects it. */
interface EventRow {
  sequence: number;
  operation_id: string;
  tool: string;
  workspace_id: string;
  previous_state: OperationState | null;
  state: OperationState;
  effect_state: EffectState;
  at: number;
}

/**
 * The JSON columns' shapes: SQLite vouches for the other columns (their types, the states' CHECK),
 * not for what a TEXT column's JSON holds.
 */
const jsonColumns = {
  args: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  error: z.object({ code: z.string(), message: z.string() }),
  projectIds: z.array(z.string()),
};

/** A JSON column read back with its shape; a value of another shape is a damaged store. */
function readJson<S extends z.ZodType>(column: string, schema: S, text: string): z.infer<S> {
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new LomiError("STORE_UNAVAILABLE", `The receipt store's ${column} column holds a value of the wrong shape: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
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
    args: readJson("args", jsonColumns.args, row.args),
    state: row.state,
    effectState: row.effect_state,
    result: row.result === null ? null : readJson("result", jsonColumns.result, row.result),
    error: row.error === null ? null : readJson("error", jsonColumns.error, row.error),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const UNFINISHED = `state NOT IN (${inList(SETTLED_STATES)})`;

export interface SqliteStoreOptions {
  lock?: BrokerPolicy["storeLock"];
  limits?: StoreLimits;
  /** The process the instance says it is, in a pid lock file (default this one's): in-process, a second instance stands for another process. */
  pid?: number;
}

/**
 * Opens (or creates) the store, takes it exclusively for this broker instance, and turns every
 * unfinished operation into outcome_unknown: after a reopening nothing is replayed.
 */
export function openSqliteStore(file: string, now: number, options: SqliteStoreOptions = {}): OpenedStore {
  const lock = options.lock ?? "sqlite-exclusive";
  // Before the lock file or SQLite touch anything: a refused file stays byte-identical, with nothing beside it.
  const found = checkStoreFile(file);
  let db: Database.Database;
  const release = lock === "pid-file" ? takePidLock(file, options.pid) : undefined;
  try {
    removeAbandonedScratch(file);
    if (found.kind === "new") createStoreFile(file);
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
    if (found.kind === "store" && found.schemaVersion < STORE_SCHEMA_VERSION) migrate(db, found.schemaVersion);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(STORE_SCHEMA_VERSION);
  } catch (error) {
    release?.();
    const busy = error instanceof Error && /SQLITE_BUSY|database is locked/i.test(`${systemCodeOf(error)} ${error.message}`);
    throw new LomiError(
      "STORE_UNAVAILABLE",
      busy ? `The receipt store ${file} is in use by another broker instance.` : `The receipt store ${file} cannot be opened: ${messageOf(error)}`,
    );
  }
  const store = new SqliteReceiptStore(db, options.limits ?? DEFAULT_STORE_LIMITS, release);
  const recovered = store.recoverUnfinished(now);
  // The upsert returns its row whatever it did; 1 is what its insert says.
  const openings =
    db
      .prepare<[], number>("INSERT INTO meta (key, value) VALUES ('openings', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1 RETURNING value")
      .pluck()
      .get() ?? 1;
  return { store, recovered, openings };
}

/** The reference broker's store: one SQLite file (WAL, synchronous=FULL), each write one transaction. */
export class SqliteReceiptStore implements ReceiptStore {
  private readonly sql;
  /**
   * How many receipts and epochs the store holds, counted once at opening and kept as writes commit:
   * this instance is the store's only writer (its lock), and `count(*)` reads the whole table, which
   * made each admission's check of the limit cost more as the store filled.
   */
  private receiptCount: number;
  private epochCount: number;

  constructor(
    private readonly db: Database.Database,
    private readonly limits: StoreLimits,
    private readonly releaseLock: (() => void) | undefined = undefined,
  ) {
    // Prepared once: preparing costs as much as running these statements.
    this.sql = {
      byKey: db.prepare<[string], ReceiptRow>("SELECT * FROM receipts WHERE receipt_key = ?"),
      byId: db.prepare<[string], ReceiptRow>("SELECT * FROM receipts WHERE operation_id = ?"),
      insert: db.prepare(
        `INSERT INTO receipts (operation_id, receipt_key, fingerprint, pairing_id, retry_epoch, project_id, workspace_id, tool,
          request_key, serialize_key, args, state, effect_state, result, error, created_at, updated_at)
         VALUES (@operationId, @receiptKey, @fingerprint, @pairingId, @retryEpoch, @projectId, @workspaceId, @tool,
          @requestKey, @serializeKey, @args, @state, @effectState, NULL, NULL, @createdAt, @updatedAt)`,
      ),
      aheadOn: db.prepare<[string, string], 1>(`SELECT 1 FROM receipts WHERE serialize_key = ? AND operation_id <> ? AND ${UNFINISHED} LIMIT 1`).pluck(),
      unsettledOn: db.prepare<[string], ReceiptRow>(`SELECT * FROM receipts WHERE serialize_key = ? AND ${UNFINISHED} ORDER BY rowid`),
      unsettledIn: db.prepare<[string, string], ReceiptRow>(
        `SELECT * FROM receipts WHERE pairing_id = ? AND workspace_id = ? AND ${UNFINISHED} ORDER BY rowid`,
      ),
      update: db.prepare(
        `UPDATE receipts SET state = ?, effect_state = ?, result = ?, error = ?, updated_at = ?
         WHERE operation_id = ? AND state = ? AND effect_state = ?`,
      ),
      event: db.prepare(
        `INSERT INTO events (operation_id, tool, workspace_id, pairing_id, previous_state, state, effect_state, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      events: db.prepare<[string, string, number, number], EventRow>(
        `SELECT sequence, operation_id, tool, workspace_id, previous_state, state, effect_state, at FROM events
         WHERE pairing_id = ? AND workspace_id = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
      ),
      insertEpoch: db.prepare(
        `INSERT INTO retry_epochs (retry_epoch, pairing_id, broker_instance_id, connection_id, workspace_id, project_ids, issued_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      epoch: db.prepare<[string], EpochRow>("SELECT * FROM retry_epochs WHERE retry_epoch = ?"),
    };
    this.receiptCount = db.prepare<[], number>("SELECT count(*) FROM receipts").pluck().get() ?? 0;
    this.epochCount = db.prepare<[], number>("SELECT count(*) FROM retry_epochs").pluck().get() ?? 0;
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.releaseLock?.();
  }

  /** Two set-wise statements in one transaction, whatever the count: reopening stays fast at the limit. */
  recoverUnfinished(now: number): number {
    return this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO events (operation_id, tool, workspace_id, pairing_id, previous_state, state, effect_state, at)
           SELECT operation_id, tool, workspace_id, pairing_id, state, 'outcome_unknown', 'unknown', ? FROM receipts WHERE ${UNFINISHED} ORDER BY rowid`,
        )
        .run(now);
      return this.db.prepare(`UPDATE receipts SET state = 'outcome_unknown', effect_state = 'unknown', updated_at = ? WHERE ${UNFINISHED}`).run(now).changes;
    })();
  }

  private guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof LomiError) throw error;
      throw new LomiError("STORE_UNAVAILABLE", `The receipt store could not ${what}: ${messageOf(error)}`);
    }
  }

  // Receipts --------------------------------------------------------------------------------------

  byKey(receiptKey: string): StoredReceipt | undefined {
    const row = this.sql.byKey.get(receiptKey);
    return row && fromRow(row);
  }

  byId(operationId: string): StoredReceipt | undefined {
    const row = this.sql.byId.get(operationId);
    return row && fromRow(row);
  }

  reserveAll(reservations: readonly Reservation[]): ReservationOutcome[] {
    return this.guard("reserve the receipt", () => {
      let count = this.receiptCount;
      const outcomes = this.db
        .transaction(() =>
          reservations.map(({ receipt, claim }): ReservationOutcome => {
            const existing = this.byKey(receipt.receiptKey);
            if (existing) return { receipt: existing, inserted: false };
            if (count >= this.limits.receipts) return { refused: new LomiError("RESOURCE_EXHAUSTED", receiptLimitReached(this.limits)) };
            this.sql.insert.run({ ...receipt, args: JSON.stringify(receipt.args) });
            count++;
            this.insertEvent(receipt, null, receipt.createdAt);
            // Nothing ahead on its target: the claim to dispatch is recorded in the same commit.
            const claimed =
              claim && this.sql.aheadOn.get(receipt.serializeKey, receipt.operationId) === undefined
                ? this.transitionInTx(receipt, "running", {}, receipt.createdAt)
                : undefined;
            return { receipt: claimed ?? receipt, inserted: true };
          }),
        )
        .immediate();
      this.receiptCount = count; // counted once the write has committed
      return outcomes;
    });
  }

  unsettledOn(serializeKey: string): StoredReceipt[] {
    return this.sql.unsettledOn.all(serializeKey).map(fromRow);
  }

  unsettledIn(pairingId: string, workspaceId: string): StoredReceipt[] {
    return this.sql.unsettledIn.all(pairingId, workspaceId).map(fromRow);
  }

  transition(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined {
    return this.guard("record a transition", () => this.db.transaction(() => this.transitionInTx(current, to, fields, now)).immediate());
  }

  transitionAll(chains: readonly TransitionChain[]): StoredReceipt[] {
    const inTx = this.transitionInTx.bind(this);
    return this.guard("record the settlements", () =>
      this.db.transaction(() => chains.map((chain) => applyChain(chain, inTx, (id) => this.byId(id)))).immediate(),
    );
  }

  private transitionInTx(current: StoredReceipt, to: OperationState, fields: TransitionFields, now: number): StoredReceipt | undefined {
    const next = transitioned(current, to, fields, now);
    if (!next) return undefined;
    const changed = this.sql.update.run(
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
    if (isEvent(current, next)) this.insertEvent(next, current.state, now);
    return next;
  }

  // Events ----------------------------------------------------------------------------------------

  private insertEvent(r: StoredReceipt, previous: OperationState | null, at: number): void {
    this.sql.event.run(r.operationId, r.tool, r.workspaceId, r.pairingId, previous, r.state, r.effectState, at);
  }

  events(pairingId: string, workspaceId: string, after: number, limit: number): { events: StoredEvent[]; hasMore: boolean } {
    const rows = this.sql.events.all(pairingId, workspaceId, after, limit + 1);
    const events = rows.slice(0, limit).map((r) => ({
      sequence: r.sequence,
      operationId: r.operation_id,
      tool: r.tool,
      workspaceId: r.workspace_id,
      previousState: r.previous_state,
      state: r.state,
      effectState: r.effect_state,
      at: r.at,
    }));
    return { events, hasMore: rows.length > limit };
  }

  // Capacity and maintenance ---------------------------------------------------------------------

  status(now: number): StoreStatus {
    const one = (sql: string, ...params: unknown[]) =>
      this.db
        .prepare<unknown[], number>(sql)
        .pluck()
        .get(...params) ?? 0;
    return {
      receipts: { count: this.receiptCount, limit: this.limits.receipts },
      retryEpochs: {
        count: this.epochCount,
        limit: this.limits.epochs,
        expired: one("SELECT count(*) AS n FROM retry_epochs WHERE expires_at <= ?", now),
      },
      unfinished: one(`SELECT count(*) AS n FROM receipts WHERE ${UNFINISHED}`),
      outcomeUnknown: one("SELECT count(*) AS n FROM receipts WHERE state = 'outcome_unknown'"),
    };
  }

  reconcile(now: number, settledBefore: number, pairingId: string, forget: readonly string[]): Reconciled {
    return this.guard("reconcile", () => {
      const done = this.db
        .transaction(() => {
          const named = forget.length === 0 ? "0" : `operation_id IN (${forget.map(() => "?").join(",")}) AND pairing_id = ?`;
          const receipts = this.db
            .prepare(`DELETE FROM receipts WHERE (state IN ('succeeded','failed','cancelled') AND updated_at <= ?) OR (${named})`)
            .run(settledBefore, ...(forget.length === 0 ? [] : [...forget, pairingId])).changes;
          const events = this.db.prepare("DELETE FROM events WHERE operation_id NOT IN (SELECT operation_id FROM receipts)").run().changes;
          const retryEpochs = this.db
            .prepare("DELETE FROM retry_epochs WHERE expires_at <= ? AND retry_epoch NOT IN (SELECT retry_epoch FROM receipts)")
            .run(now).changes;
          return { receipts, retryEpochs, events };
        })
        .immediate();
      this.receiptCount -= done.receipts;
      this.epochCount -= done.retryEpochs;
      return done;
    });
  }

  // Retry epochs ----------------------------------------------------------------------------------

  insertEpochs(epochs: readonly StoredEpoch[]): EpochOutcome[] {
    return this.guard("record the retry epochs", () => {
      let count = this.epochCount;
      const outcomes = this.db
        .transaction(() =>
          epochs.map((epoch): EpochOutcome => {
            if (count >= this.limits.epochs) return { refused: new LomiError("RESOURCE_EXHAUSTED", epochLimitReached(this.limits)) };
            count++;
            this.sql.insertEpoch.run(
              epoch.retryEpoch,
              epoch.pairingId,
              epoch.brokerInstanceId,
              epoch.connectionId,
              epoch.workspaceId,
              JSON.stringify(epoch.projectIds),
              epoch.issuedAt,
              epoch.expiresAt,
            );
            return { recorded: true };
          }),
        )
        .immediate();
      this.epochCount = count;
      return outcomes;
    });
  }

  epoch(retryEpoch: string): StoredEpoch | undefined {
    const row = this.sql.epoch.get(retryEpoch);
    if (!row) return undefined;
    return {
      retryEpoch: row.retry_epoch,
      pairingId: row.pairing_id,
      brokerInstanceId: row.broker_instance_id,
      connectionId: row.connection_id,
      workspaceId: row.workspace_id,
      projectIds: readJson("project_ids", jsonColumns.projectIds, row.project_ids),
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
    };
  }
}
