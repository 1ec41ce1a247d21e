import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { onReopening, withStoreFile, type UnfinishedRow } from "./doctored-store.js";
import { madeUpKey } from "./made-up-permit.js";
import type { Mutant } from "./mutant.js";

export const durResumedAfterRestart: Mutant = {
  name: "dur-resumed-after-restart",
  family: "DUR",
  // Not DUR-06: work done after a restart breaks "never dispatched again" (DUR-01), which is what
  // effects-requested finds; the operations it resumes were queued, behind others, not reserved at a
  // DUR-06 crash point (those were claimed running and are left alone).
  breaks: ["DUR-01"],
  defect:
    "on restart, every operation still queued (never sent to Lomi) is sent as a new operation under a request key of the broker's own making: its receipt reads outcome_unknown, yet Lomi does work no agent asked for",
  needs: "crash",
  oracle: "effects-requested",
  stepsBlind: true,
  parts: {
    openStore: onReopening(async (file, now, native, options) => {
      const unfinished =
        withStoreFile(file, (db, where) => db.prepare(`SELECT * FROM receipts WHERE ${where} AND state = 'queued' ORDER BY rowid`).all() as UnfinishedRow[]) ??
        [];
      const opened = openSqliteStore(file, now, options);
      for (const r of unfinished) {
        const args = JSON.parse(r.args) as Record<string, unknown>;
        // Never dispatched, so it "cannot be a replay": sent under its own operationId with a permit and a request key of its own.
        const requestKey = `${String(args.requestKey)}.resumed`;
        await native
          .dispatch(
            { pairingId: r.pairing_id, tool: r.tool, workspaceId: r.workspace_id, projectId: r.project_id, args: { ...args, requestKey } },
            { operationId: r.operation_id, receiptKey: madeUpKey(`${r.receipt_key}.resumed`), fingerprint: r.fingerprint },
          )
          .catch(() => undefined);
      }
      return opened;
    }),
  },
};
