import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, openSync, readSync, closeSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { isOneOf } from "../protocol/closed-lists.js";
import { LomiError, messageOf, systemCodeOf } from "../protocol/errors.js";

/** SQLite's application_id of a Lomi receipt store: "LOMI". */
export const STORE_APPLICATION_ID = 0x4c4f4d49;
/** The schema this broker writes; a store with a higher user_version comes from a newer kit. */
export const STORE_SCHEMA_VERSION = 1;
/** The tables of a store written before stores carried a version (schema version 0). */
export const UNVERSIONED_TABLES = ["events", "meta", "receipts", "retry_epochs"] as const;

const SQLITE_MAGIC = "SQLite format 3\u0000";

/** What a store path holds: nothing yet, or a Lomi store of a schema version this broker can open. */
export type StoreFile = { kind: "new" } | { kind: "store"; schemaVersion: number };

const RESTORE = "Restore it from a backup, or move it away and start a new store.";
const NEWER = "Run the broker of the kit that wrote it, or start a new store.";

function refuse(file: string, reason: string, problem: string, remedy: string): never {
  throw new LomiError("STORE_UNAVAILABLE", `The receipt store ${file} ${problem}; nothing was changed. ${remedy}`, { field: "store", reason });
}

function header(file: string): Buffer {
  const fd = openSync(file, "r");
  try {
    const bytes = Buffer.alloc(100);
    return bytes.subarray(0, readSync(fd, bytes, 0, 100, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Looks at a store path before anything writes it, so a file that is not ours, is newer than this
 * broker, is damaged or has version markers that disagree is refused byte-identical and without
 * -wal, -shm or -journal files beside it. Only reads: the file's header, then a private copy.
 */
export function checkStoreFile(file: string): StoreFile {
  const dir = path.dirname(path.resolve(file));
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    refuse(
      file,
      "read-only",
      `cannot be written: its directory ${dir} is not writable (${systemCodeOf(error)})`,
      "SQLite writes a -wal file beside the store: make the directory writable or pass another --store.",
    );
  }
  if (!existsSync(file)) return { kind: "new" };
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    refuse(
      file,
      "read-only",
      `is not readable and writable by this user (${systemCodeOf(error)})`,
      "Make it writable for the user running the broker, or pass another --store.",
    );
  }
  const size = statSync(file).size;
  if (size === 0) return { kind: "new" };
  const head = header(file);
  if (head.length < 100 || head.toString("latin1", 0, 16) !== SQLITE_MAGIC) {
    refuse(file, "damaged", "is not an SQLite database (damaged, or another kind of file)", RESTORE);
  }
  const pageSize = head.readUInt16BE(16) === 1 ? 65536 : head.readUInt16BE(16);
  if (size % pageSize !== 0) refuse(file, "damaged", `is truncated (${size} bytes, not a whole number of ${pageSize}-byte pages)`, RESTORE);
  // The header's page count is trustworthy when its version-valid-for number matches the change counter.
  const pages = head.readUInt32BE(28);
  if (head.readUInt32BE(92) === head.readUInt32BE(24) && pages > 0 && size < pages * pageSize) {
    refuse(file, "damaged", `is truncated (${size} bytes where its header says ${pages * pageSize})`, RESTORE);
  }
  const applicationId = head.readUInt32BE(68);
  const userVersion = head.readUInt32BE(60);
  if (applicationId !== 0 && applicationId !== STORE_APPLICATION_ID) {
    refuse(
      file,
      "foreign",
      `belongs to another application (SQLite application_id 0x${applicationId.toString(16)})`,
      "Pass --store with a path for a new Lomi store.",
    );
  }
  const stamped = applicationId === STORE_APPLICATION_ID;
  if (stamped && userVersion > STORE_SCHEMA_VERSION)
    refuse(file, "newer", `has schema version ${userVersion}, newer than this broker's ${STORE_SCHEMA_VERSION}`, NEWER);
  const { tables, metaVersion } = inspectCopy(file);
  if (tables.length === 0) return { kind: "new" };
  const ours = UNVERSIONED_TABLES.every((t) => tables.includes(t)) && tables.every((t) => isOneOf(UNVERSIONED_TABLES, t) || t === "sqlite_sequence");
  if (!ours)
    refuse(file, "foreign", `is not a Lomi receipt store (its tables: ${tables.slice(0, 8).join(", ")})`, "Pass --store with a path for a new Lomi store.");
  if (!stamped) return { kind: "store", schemaVersion: 0 };
  // A stamped store records its version twice, in one transaction: markers that disagree mean it was not this kit that wrote it last.
  if (metaVersion !== userVersion) {
    const markers = `its version markers disagree (user_version ${userVersion}, meta.schema_version ${metaVersion ?? "missing"})`;
    if ((metaVersion ?? 0) > STORE_SCHEMA_VERSION)
      refuse(file, "newer", `${markers}: it may come from a newer kit than this broker's schema version ${STORE_SCHEMA_VERSION}`, NEWER);
    refuse(file, "damaged", markers, RESTORE);
  }
  return { kind: "store", schemaVersion: userVersion };
}

interface Contents {
  tables: string[];
  /** meta.schema_version, when the store has one. */
  metaVersion: number | undefined;
}

/**
 * What the store holds, after SQLite's quick_check, read from a private copy (with its -wal) so the
 * original gains no side files and its recovery changes only the copy. Not in place: a read-only
 * connection to a WAL store creates -wal and -shm files and leaves them behind, and a read-write one
 * (which removes its own) runs quick_check 2.5 times slower than the copy and check together
 * (docs/decisions.md, "Store files are checked").
 */
function inspectCopy(file: string): Contents {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "lomi-store-check-"));
  const copy = path.join(scratch, "store.sqlite");
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const db = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      const check = db.pragma("quick_check", { simple: true });
      if (check !== "ok") refuse(file, "damaged", `is damaged (SQLite quick_check: ${String(check).slice(0, 120)})`, RESTORE);
      const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      const metaVersion = tables.includes("meta") ? db.prepare<[], number>("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() : undefined;
      return { tables, metaVersion };
    } finally {
      db.close();
    }
  } catch (error) {
    if (error instanceof LomiError) throw error;
    refuse(file, "damaged", `cannot be read as a database (${messageOf(error).slice(0, 120)})`, RESTORE);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
