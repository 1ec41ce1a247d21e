import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { SETTLED_STATES } from "../protocol/states.js";
import type { BrokerParts } from "../reference-broker/broker.js";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";

type OpenStore = NonNullable<BrokerParts["openStore"]>;

/** A store part that acts only when it reopens a store (openStore.onReopening). */
export type ReopeningStore = OpenStore & { onReopening: true };

/**
 * A store part whose defect acts only where a store already is, a restart's reopening: a new store
 * (a first start) is made and opened as the reference broker does, `open` not even called. In-process
 * a store is reopened only by a restart after a crash, which a history records, so `lomi-conformance
 * teeth` judges a mutant made of it (and of picking sessions, mutants/rewriting-session.ts) only in
 * the scenarios whose reference history holds a crash.
 */
export function onReopening(open: OpenStore): ReopeningStore {
  const part: OpenStore = (file, now, native, options) => (existsSync(file) ? open(file, now, native, options) : openSqliteStore(file, now, options));
  return Object.assign(part, { onReopening: true as const });
}

/** Whether a store part acts only on reopenings. */
export const reopensOnly = (openStore: OpenStore): boolean => "onReopening" in openStore;

export interface UnfinishedRow {
  operation_id: string;
  receipt_key: string;
  fingerprint: string;
  pairing_id: string;
  project_id: string;
  workspace_id: string;
  tool: string;
  args: string;
}

/**
 * Works on the store file directly, before the broker opens it (a mutant that doctors what recovery
 * sees); `unfinished` is the SQL condition for an unsettled receipt. Nothing to do on a first start.
 */
export function withStoreFile<T>(file: string, work: (db: Database.Database, unfinished: string) => T): T | undefined {
  if (!existsSync(file)) return undefined;
  const db = new Database(file);
  try {
    return work(db, `state NOT IN (${SETTLED_STATES.map((s) => `'${s}'`).join(",")})`);
  } finally {
    db.close();
  }
}
