import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { SETTLED_STATES } from "../protocol/states.js";

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
