// The admission baseline: what better-sqlite3 itself commits per second with the durability the
// rules need (WAL, synchronous=FULL), one row per transaction, on the same disk as the broker's store.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** Commits one row at a time for `seconds`, and answers commits per second. */
export function rawCommitsPerSecond(seconds: number): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-bench-sqlite-"));
  const db = new Database(path.join(dir, "raw.sqlite"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("CREATE TABLE receipts (key TEXT PRIMARY KEY, body TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO receipts (key, body) VALUES (?, ?)");
    const body = JSON.stringify({ state: "queued", padding: "x".repeat(300) });
    const started = process.hrtime.bigint();
    const deadline = started + BigInt(Math.round(seconds * 1e9));
    let commits = 0;
    while (process.hrtime.bigint() < deadline) insert.run(`key-${commits++}`, body); // autocommit: one fsync'd transaction each
    return commits / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
