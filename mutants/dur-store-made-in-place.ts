import Database from "better-sqlite3";
import { openSqliteStore, SCHEMA } from "../reference-broker/sqlite-receipt-store.js";
import { checkStoreFile, STORE_APPLICATION_ID, STORE_SCHEMA_VERSION } from "../reference-broker/store-file-check.js";
import type { Mutant } from "./mutant.js";

/**
 * A slow disk, as on a loaded CI machine: its first fsyncs take SLOW_DISK_MS, then each table
 * TABLE_MS. The harness must find the tables wherever the disk puts them in the start (a fixed
 * 15 ms after the first write once missed them all).
 */
const SLOW_DISK_MS = 40;
const TABLE_MS = 10;
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export const durStoreMadeInPlace: Mutant = {
  name: "dur-store-made-in-place",
  family: "DUR",
  breaks: ["DUR-08"],
  defect: "a new store is made at its path one table at a time (as a naive CREATE TABLE IF NOT EXISTS at start does): a broker killed while making it leaves some tables, which its next start refuses as not a Lomi store",
  needs: "kill-at-start",
  parts: {
    openStore: (file, now, _native, options) => {
      // Whenever the path holds no store yet (none, or a file with no tables): the reference makes it beside and links it in.
      if (checkStoreFile(file).kind === "new") {
        const db = new Database(file);
        try {
          db.pragma("journal_mode = WAL");
          pause(SLOW_DISK_MS);
          for (const statement of SCHEMA.split(";").map((s) => s.trim()).filter((s) => s !== "")) {
            db.exec(statement);
            pause(TABLE_MS);
          }
          db.pragma(`application_id = ${STORE_APPLICATION_ID}`);
          db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
          db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(STORE_SCHEMA_VERSION);
        } finally {
          db.close();
        }
      }
      return openSqliteStore(file, now, options);
    },
  },
};
