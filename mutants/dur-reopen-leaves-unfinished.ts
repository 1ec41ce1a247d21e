import type Database from "better-sqlite3";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { onReopening, withStoreFile } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

type Row = { operation_id: string; state: string; effect_state: string };

export const durReopenLeavesUnfinished: Mutant = {
  name: "dur-reopen-leaves-unfinished",
  family: "DUR",
  breaks: ["DUR-01", "DUR-06"],
  defect:
    "on reopening the store, unfinished operations are left as they stood (queued, running) instead of outcome_unknown: the broker goes on asking Lomi about them as if it had never stopped",
  needs: "crash",
  parts: {
    // A first start has no store to leave unfinished: the part acts on reopenings only.
    openStore: onReopening((file, now, _native, options) => {
      const before =
        withStoreFile(file, (db, where) => db.prepare(`SELECT operation_id, state, effect_state FROM receipts WHERE ${where}`).all() as Row[]) ?? [];
      const opened = openSqliteStore(file, now, options);
      // The store holds its file exclusively once open: the recovery is undone through its own connection.
      const db = (opened.store as unknown as { db: Database.Database }).db;
      db.transaction(() => {
        const put = db.prepare("UPDATE receipts SET state = ?, effect_state = ? WHERE operation_id = ?");
        const unevent = db.prepare("DELETE FROM events WHERE operation_id = ? AND state = 'outcome_unknown'");
        for (const r of before) {
          put.run(r.state, r.effect_state, r.operation_id);
          unevent.run(r.operation_id);
        }
      })();
      return { ...opened, recovered: 0 };
    }),
  },
};
