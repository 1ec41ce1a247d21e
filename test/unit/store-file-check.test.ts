import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { LomiError } from "../../protocol/errors.js";
import { openSqliteStore } from "../../reference-broker/sqlite-receipt-store.js";
import { STORE_APPLICATION_ID, STORE_SCHEMA_VERSION } from "../../reference-broker/store-file-check.js";
import { kitPath } from "../../protocol/kit-root.js";

const V0_FIXTURE = kitPath("test/fixtures/stores/unversioned-v0.sqlite");
const NOW = Date.parse("2026-01-05T10:00:00Z");

function scratch(): string {
  return mkdtempSync(path.join(os.tmpdir(), "lomi-store-test-"));
}
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Opening must fail with STORE_UNAVAILABLE for `reason`, name the file, and leave the directory exactly as it was. */
function assertRefused(file: string, reason: string, says: RegExp) {
  const dir = path.dirname(file);
  const before = { bytes: digest(file), entries: readdirSync(dir).sort() };
  assert.throws(
    () => openSqliteStore(file, NOW),
    (e: unknown) =>
      e instanceof LomiError && e.code === "STORE_UNAVAILABLE" && e.details?.reason === reason && e.message.includes(file) && says.test(e.message),
  );
  assert.equal(digest(file), before.bytes, "the file changed");
  assert.deepEqual(readdirSync(dir).sort(), before.entries, "files appeared beside the store");
}

function sqliteFile(file: string, setup: (db: Database.Database) => void): string {
  const db = new Database(file);
  setup(db);
  db.close();
  return file;
}

test("another application's database, even one with a receipts table, is refused without a byte changed", () => {
  const dir = scratch();
  const plain = sqliteFile(path.join(dir, "notes.db"), (db) =>
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello');"),
  );
  assertRefused(plain, "foreign", /not a Lomi receipt store.*notes/);
  const lookalike = sqliteFile(path.join(dir, "shop.db"), (db) =>
    db.exec("CREATE TABLE receipts (id INTEGER PRIMARY KEY, total REAL); CREATE TABLE customers (id INTEGER);"),
  );
  assertRefused(lookalike, "foreign", /not a Lomi receipt store/);
  const tagged = sqliteFile(path.join(dir, "tagged.db"), (db) => {
    db.pragma("application_id = 305419896");
    db.exec("CREATE TABLE receipts (id INTEGER)");
  });
  assertRefused(tagged, "foreign", /another application \(SQLite application_id 0x12345678\)/);
});

test("a store from a newer kit is refused without a byte changed", () => {
  const dir = scratch();
  const file = path.join(dir, "receipts.sqlite");
  openSqliteStore(file, NOW).store.close();
  sqliteFile(file, (db) => db.pragma(`user_version = ${STORE_SCHEMA_VERSION + 1}`));
  assertRefused(file, "newer", new RegExp(`schema version ${STORE_SCHEMA_VERSION + 1}, newer than this broker's ${STORE_SCHEMA_VERSION}`));
});

test("a store whose version markers disagree is refused without a byte changed", () => {
  const dir = scratch();
  const ahead = path.join(dir, "ahead.sqlite");
  openSqliteStore(ahead, NOW).store.close();
  sqliteFile(ahead, (db) => db.prepare("UPDATE meta SET value = 99 WHERE key = 'schema_version'").run());
  assertRefused(ahead, "newer", new RegExp(`version markers disagree \\(user_version ${STORE_SCHEMA_VERSION}, meta.schema_version 99\\)`));
  const missing = path.join(dir, "missing.sqlite");
  openSqliteStore(missing, NOW).store.close();
  sqliteFile(missing, (db) => db.prepare("DELETE FROM meta WHERE key = 'schema_version'").run());
  assertRefused(missing, "damaged", /version markers disagree \(user_version \d+, meta.schema_version missing\)/);
});

test("a damaged store (truncated, garbage, a text file) is refused with no -wal or -shm left beside it", () => {
  const dir = scratch();
  const truncated = path.join(dir, "truncated.sqlite");
  copyFileSync(V0_FIXTURE, truncated);
  truncateSync(truncated, 4096 * 3);
  assertRefused(truncated, "damaged", /truncated/);
  const odd = path.join(dir, "odd.sqlite");
  copyFileSync(V0_FIXTURE, odd);
  truncateSync(odd, 5000);
  assertRefused(odd, "damaged", /truncated/);
  const text = path.join(dir, "readme.txt");
  writeFileSync(text, "not a database at all\n".repeat(20));
  assertRefused(text, "damaged", /not an SQLite database/);
  const scrambled = path.join(dir, "scrambled.sqlite");
  const bytes = readFileSync(V0_FIXTURE);
  for (let i = 4096; i < bytes.length; i += 7) bytes[i] = (bytes[i]! * 31 + 7) & 0xff;
  writeFileSync(scrambled, bytes);
  assertRefused(scrambled, "damaged", /damaged|cannot be read/);
});

test("a new store records its application id and schema version", () => {
  const file = path.join(scratch(), "receipts.sqlite");
  openSqliteStore(file, NOW).store.close();
  const db = new Database(file, { readonly: true });
  assert.equal(db.pragma("application_id", { simple: true }), STORE_APPLICATION_ID);
  assert.equal(db.pragma("user_version", { simple: true }), STORE_SCHEMA_VERSION);
  assert.equal((db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: number }).value, STORE_SCHEMA_VERSION);
  db.close();
  openSqliteStore(file, NOW).store.close(); // and it opens again as ours
});

test("a store written before stores had a version is migrated and keeps its receipts", () => {
  const file = path.join(scratch(), "receipts.sqlite");
  copyFileSync(V0_FIXTURE, file);
  const { store } = openSqliteStore(file, NOW);
  const receipt = store.byId("op-5sec0e7n9alr");
  assert.equal(receipt?.state, "succeeded");
  assert.equal(receipt?.requestKey, "v0-create");
  store.close();
  const db = new Database(file, { readonly: true });
  assert.equal(db.pragma("application_id", { simple: true }), STORE_APPLICATION_ID);
  assert.equal(db.pragma("user_version", { simple: true }), STORE_SCHEMA_VERSION);
  db.close();
  assert.equal(openSqliteStore(file, NOW).store.byId("op-5sec0e7n9alr")?.state, "succeeded");
});

test("an empty file becomes a new store", () => {
  const file = path.join(scratch(), "receipts.sqlite");
  writeFileSync(file, "");
  const { store } = openSqliteStore(file, NOW);
  assert.equal(store.status(NOW).receipts.count, 0);
  store.close();
});
