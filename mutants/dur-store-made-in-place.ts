import Database from "better-sqlite3";
import { openSqliteStore, SCHEMA } from "../reference-broker/sqlite-receipt-store.js";
import { checkStoreFile, STORE_APPLICATION_ID, STORE_SCHEMA_VERSION } from "../reference-broker/store-file-check.js";
import type { Mutant } from "./mutant.js";

/**
 * A slow disk, as on a loaded CI machine: its first fsyncs take SLOW_DISK_MS, then each table
 * TABLE_MS. The harness must find the tables wherever the disk puts them in the start (a fixed
 * 15 ms after the first write once missed them all). The half-made store lasts most of the start,
 * so the harness's kills, spread over it, catch it however late a loaded machine lets it see the
 * first write and fire its timers (10 ms a table, 100 ms in all, was missed by every kill at a load
 * average of 15).
 */
const SLOW_DISK_MS = 40;
const TABLE_MS = 100;
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
/**
 * Only a broker process's own store (the environment contract's LOMI_STORE_PATH) is made slowly:
 * a kill during its start can catch it half made. In-process no kill can land, and a pause would
 * stop the harness itself for every scenario's store.
 */
const killable = (file: string) => process.env.LOMI_STORE_PATH === file;

export const durStoreMadeInPlace: Mutant = {
  name: "dur-store-made-in-place",
  family: "DUR",
  breaks: ["DUR-08"],
  defect:
    "a new store is made at its path one table at a time (as a naive CREATE TABLE IF NOT EXISTS at start does): a broker killed while making it leaves some tables, which its next start refuses as not a Lomi store",
  needs: "kill-at-start",
  parts: {
    openStore: (file, now, _native, options) => {
      // Whenever the path holds no store yet (none, or a file with no tables): the reference makes it beside and links it in.
      if (checkStoreFile(file).kind === "new") {
        const db = new Database(file);
        try {
          const slowly = killable(file);
          db.pragma("journal_mode = WAL");
          if (slowly) pause(SLOW_DISK_MS);
          for (const statement of SCHEMA.split(";")
            .map((s) => s.trim())
            .filter((s) => s !== "")) {
            db.exec(statement);
            if (slowly) pause(TABLE_MS);
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
