import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { onReopening, withStoreFile, type UnfinishedRow } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

export const durReplayAfterRestart: Mutant = {
  name: "dur-replay-after-restart",
  family: "DUR",
  breaks: ["DUR-01", "DUR-06"],
  defect: "on restart, every operation left unfinished is dispatched to Lomi again under its old permit",
  needs: "crash",
  // One crash scenario shows it (of DUR-01's six, each a broker restart over stdio).
  shownBy: "@DUR-01 and @OP-03",
  parts: {
    openStore: onReopening(async (file, now, native, options) => {
      const unfinished = withStoreFile(file, (db, where) => db.prepare(`SELECT * FROM receipts WHERE ${where} ORDER BY rowid`).all() as UnfinishedRow[]) ?? [];
      const opened = openSqliteStore(file, now, options);
      for (const r of unfinished) {
        await native
          .dispatch(
            {
              pairingId: r.pairing_id,
              tool: r.tool,
              workspaceId: r.workspace_id,
              projectId: r.project_id,
              args: JSON.parse(r.args) as Record<string, unknown>,
            },
            { operationId: r.operation_id, receiptKey: r.receipt_key, fingerprint: r.fingerprint },
          )
          .catch(() => undefined); // Lomi refuses the replay; the damage is in its ledger
      }
      return opened;
    }),
  },
};
