import Database from "better-sqlite3";
import { openSqliteStore, SCHEMA } from "../reference-broker/sqlite-receipt-store.js";
import { checkStoreFile, STORE_APPLICATION_ID, STORE_SCHEMA_VERSION } from "../reference-broker/store-file-check.js";
import type { Mutant } from "./mutant.js";

/** How long each table takes to appear: the creation spans the harness's 0–15 ms kill window. */
const PAUSE_MS = 4;
const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);

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
          for (const statement of SCHEMA.split(";").map((s) => s.trim()).filter((s) => s !== "")) {
            db.exec(statement);
            pause();
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
